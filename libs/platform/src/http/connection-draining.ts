import type { FastifyInstance } from 'fastify';

/**
 * Makes `close()` finish once in-flight requests are done. Fastify closes connections that are idle when
 * close starts, but a keep-alive connection busy at that moment would stay open after its response until the
 * keep-alive timeout, holding shutdown past its grace period. From the moment close starts, every response
 * says `Connection: close`, so its socket ends right after it.
 */
export function installConnectionDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    return payload;
  });
}
