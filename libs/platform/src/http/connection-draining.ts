import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** A GET whose client asked for an event stream (an MCP client's notification stream, an EventSource). */
function asksForEventStream(method: string | undefined, accept: string | undefined): boolean {
  return method === 'GET' && accept !== undefined && accept.toLowerCase().includes('text/event-stream');
}

/**
 * Makes `close()` finish once in-flight requests are done. Fastify closes connections that are idle when
 * close starts, but a keep-alive connection busy at that moment would stay open after its response until the
 * keep-alive timeout, holding shutdown past its grace period. From the moment close starts, every response
 * says `Connection: close`, so its socket ends right after it; a response whose headers were already sent (a
 * hijacked one, an event stream) has its connection closed as soon as it ends.
 *
 * An event stream opened with GET answers no request and has no end of its own: waiting for it would hold the
 * close (and every shutdown hook after it: the gateway's sessions, its upstreams' children) until the grace
 * period killed the process. Close ends such streams once it starts; their clients reconnect elsewhere. A
 * request answered as an event stream (a POST: a tool call's progress) is still drained.
 */
export function installConnectionDraining(app: FastifyInstance): void {
  let closing = false;
  const inFlight = new Map<ServerResponse, { eventStream: boolean }>();
  app.addHook('onRequest', async (request, reply) => {
    const response = reply.raw;
    inFlight.set(response, { eventStream: asksForEventStream(request.raw.method, request.headers.accept) });
    response.once('close', () => inFlight.delete(response));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const [response, { eventStream }] of inFlight) {
      if (!response.headersSent) continue;
      // Its headers promised keep-alive: once it ends its connection is idle, and close waits on idle ones no more.
      response.once('finish', () => setImmediate(() => app.server.closeIdleConnections()));
      if (!eventStream || response.writableEnded) continue;
      // The stream's writer may still write after this end; that write fails harmlessly.
      response.on('error', () => undefined);
      response.end();
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    return payload;
  });
}
