import { Agent, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '../app/create-service-app.js';
import { createLogger } from '../logger/create-logger.js';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';

// Closing an app drains in-flight requests, but an event stream a client opened with GET (an MCP client's
// notification stream, an EventSource) answers no request and never ends on its own: the close used to wait on it
// until the process's grace period killed it, before any shutdown hook (the gateway's sessions and children) ran.

const logger = createLogger({ name: 'draining-test', level: 'silent' });

let app: NestFastifyApplication;
// Keeps its idle sockets for as long as the server does (no client-side idle timeout), as a long-lived MCP client
// may: only the server closing them ends them.
let agent: Agent;
let finishAnswer: () => void;
let reached: Promise<void>;
let markReached: () => void;
let finishLater: () => void;

beforeEach(async () => {
  agent = new Agent({ keepAlive: true });
  reached = new Promise((resolve) => (markReached = resolve));
  app = await createServiceApp({
    logger,
    metrics: createMetricsRegistry({ app: 'draining' }),
    imports: [],
    readiness: {},
    bodyLimit: 1024,
    beforeInit: (nest) => {
      const instance = nest.getHttpAdapter().getInstance();
      instance.get('/events', (_request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
        reply.raw.write(': open\n\n');
      });
      // A request's answer sent as an event stream (an MCP tool call's progress), finished by the test.
      instance.post('/answer', (_request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
        reply.raw.write('event: progress\ndata: 1\n\n');
        finishAnswer = () => reply.raw.end('event: message\ndata: done\n\n');
      });
      // A reply Fastify sends once its handler is done, still being prepared when the close starts.
      instance.get('/later', async () => {
        const answered = new Promise<void>((resolve) => (finishLater = resolve));
        markReached();
        await answered;
        return { done: true };
      });
      // A hijacked answer that writes its headers once ready (the MCP endpoint's JSON answer).
      instance.post('/later', (_request, reply) => {
        reply.hijack();
        finishLater = () => {
          reply.raw.writeHead(200, { 'content-type': 'application/json' });
          reply.raw.end('{"done":true}');
        };
        markReached();
      });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
});

afterEach(async () => {
  // Each case closed it already; a case that failed half-way may not have.
  await app.close().catch(() => undefined);
  agent.destroy();
});

/** Opens a request and resolves once its response's headers and first chunk arrived. */
function open(
  method: 'GET' | 'POST',
  path: string,
  accept: string,
): Promise<{ response: IncomingMessage; body: () => string }> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: { accept }, agent });
    sent.on('error', reject);
    sent.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.once('data', (chunk: string) => {
        body += chunk;
        response.on('data', (more: string) => (body += more));
        resolve({ response, body: () => body });
      });
    });
    sent.end();
  });
}

const ended = (response: IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    if (response.complete) resolve();
    response.once('end', resolve);
    response.once('close', resolve);
  });

it("ends a GET event stream when the app closes, so the close resolves (the client's stream ends)", async () => {
  const { response } = await open('GET', '/events', 'text/event-stream');
  await Promise.all([app.close(), ended(response)]);
  expect(response.complete).toBe(true);
});

it('drains a request answered as an event stream, then closes its keep-alive connection: the close resolves', async () => {
  const { response, body } = await open('POST', '/answer', 'application/json, text/event-stream');
  let closed = false;
  const closing = app.close().then(() => {
    closed = true;
  });
  // The close began (Fastify refuses new requests from then on) and has not ended the answer.
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(closed).toBe(false);
  expect(response.complete).toBe(false);
  finishAnswer();
  await Promise.all([closing, ended(response)]);
  expect(body()).toContain('data: done');
});

// A keep-alive connection busy with an answer that has not begun when the close starts. A hijacked answer (the MCP
// endpoint's) writes its own headers, past any Fastify hook: the header has to be on the raw response, or its
// connection holds the close for Fastify's keep-alive timeout (72 s).
describe.each(['GET', 'POST'] as const)('a %s answer not begun when the close starts', (method) => {
  it('says Connection: close, so its keep-alive connection ends after it and the close resolves', async () => {
    const answer = open(method, '/later', 'application/json');
    await reached;
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finishLater();
    const { response, body } = await answer;
    await Promise.all([closing, ended(response)]);
    expect(response.headers.connection).toBe('close');
    expect(body()).toContain('"done":true');
  });
});
