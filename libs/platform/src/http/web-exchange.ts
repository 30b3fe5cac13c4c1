import type { IncomingMessage, ServerResponse } from 'node:http';

// Node's request and response as the web-standard Request and Response that fetch-shaped handlers speak (the MCP
// SDK v2's per-request handler, served by the gateway's endpoints and the API's admin MCP route). The body is not
// copied: Fastify has parsed and bounded it already, and such a handler takes it parsed. The Request's signal
// aborts when the client goes away before its answer was written, which ends the exchange (and whatever runs
// under it).

export function webRequestOf(request: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  // Only the path is the handler's business; the Host, where it matters, was judged by the route before this.
  return new Request(new URL(request.url ?? '/', 'http://request.invalid'), {
    method: request.method ?? 'GET',
    headers,
    signal,
  });
}

/**
 * Writes a web Response to Node's: an event stream as it comes (stops reading it once the client has gone), any
 * other body whole, in one write (the per-call JSON answers: no reader loop on the hot path).
 */
export async function writeWebResponse(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (answer.body === null) {
    response.writeHead(answer.status, headers).end();
    return;
  }
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, headers).end(body);
    return;
  }
  response.writeHead(answer.status, headers);
  const reader = answer.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  response.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // An SSE frame is written as it comes: a progress notification must not wait for the next one.
      response.write(value);
    }
  } catch {
    // The client went away (the reader was cancelled) or the stream failed: nothing left to write to.
  } finally {
    response.off('close', stop);
    response.end();
  }
}
