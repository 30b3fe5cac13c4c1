import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** A GET whose client asked for an event stream (an MCP client's notification stream, an EventSource). */
function asksForEventStream({ method, headers }: IncomingMessage): boolean {
  return (
    method === 'GET' &&
    headers.accept !== undefined &&
    headers.accept.toLowerCase().includes('text/event-stream')
  );
}

const ignoreError = (): void => undefined;

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
 *
 * This runs on every request (every MCP tool call), so a request costs one set entry and one shared listener:
 * no Fastify hook (an async one costs a promise and a deferred turn per request), nothing decided until close
 * starts. Responses are tracked on the server's `request` event, which is the app's main address only: a
 * `localhost` listen's other address is closed by Fastify after it, and close waits on the main one alone.
 */
export function installConnectionDraining(app: FastifyInstance): void {
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  function forget(this: ServerResponse): void {
    inFlight.delete(this);
  }
  // Its headers promised keep-alive: once it ends its connection is idle, and close waits on idle ones no more.
  const closeIdleOnceDetached = (): void => {
    setImmediate(() => app.server.closeIdleConnections());
  };

  // Before Fastify's own listener, so a response is tracked before any handler can answer it.
  app.server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (closing) {
      // Fastify refuses it (503), or answers a 404 or a malformed request: either way its socket ends after it.
      response.setHeader('connection', 'close');
      return;
    }
    inFlight.add(response);
    response.on('close', forget);
  });

  app.addHook('preClose', async () => {
    closing = true;
    for (const response of inFlight) {
      if (!response.headersSent) {
        // Node merges this with the headers the reply (or a hijacked writer) sends later.
        response.setHeader('connection', 'close');
        continue;
      }
      response.once('finish', closeIdleOnceDetached);
      if (response.writableEnded || !asksForEventStream(response.req)) continue;
      // The stream's writer may still write after this end; that write fails harmlessly.
      response.on('error', ignoreError);
      response.end();
    }
  });
}
