import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { COMMANDS } from '@gatehouse/commands';
import { createTestWorkspace, TEST_DATABASE_TIMEOUT_MS, type TestTenant } from '@gatehouse/testing';
import { createMember, createTestTenant, mintTestToken } from '../commands/testing/surfaces-harness';
import { carriesBody } from '../admin-surfaces/rest/command-route-schema';
import { startListeningApi, type ListeningApi, type RawResponse } from './testing/listening-api.harness';

// Every answer of the API is problem+json or the declared output (docs/architecture/admin-surfaces.md): also
// the answers that Fastify and Node make themselves (router limits, body parsing, unknown routes, malformed
// HTTP), and a JSON `null` where an object is expected is a 400, never an empty input. Checked over a real
// socket.

jest.setTimeout(60_000);

let api: ListeningApi;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  api = await startListeningApi();
  tenant = await createTestTenant(api.db, { slug: `edge-${randomUUID().slice(0, 6)}` });
  const owner = await createMember(api.db, tenant, 'owner');
  token = (await mintTestToken(api.db, tenant, owner, { kind: 'user' })).secret;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const auth = () => ({ authorization: `Bearer ${token}` });

function expectProblem(response: RawResponse, status: number, code?: string): void {
  expect({ status: response.status, contentType: response.contentType }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/problem\+json/),
  });
  const body = response.json();
  expect(body).toMatchObject({ status, type: expect.stringMatching(/^urn:gatehouse:problem:/) });
  if (code !== undefined) expect(body.code).toBe(code);
}

/** A concrete path for a route pattern: the first `:param` becomes `first`, any other a fresh uuid. */
function pathOf(pattern: string, first: string): string {
  let index = 0;
  return pattern.replace(/:[A-Za-z]+/g, () => (index++ === 0 ? first : randomUUID()));
}

const LONG = 'a'.repeat(10_000);
const PARAMETERIZED = COMMANDS.filter((command) => command.http.path.includes(':'));
const WITH_BODY = COMMANDS.filter((command) => carriesBody(command));

describe('router limits answer problem+json', () => {
  it('a 10,000-character path parameter → 414 uri_too_long, with or without credentials', async () => {
    const path = `/v1/workspaces/${LONG}`;
    expectProblem(await api.send({ method: 'GET', path }), 414, 'uri_too_long');
    expectProblem(await api.send({ method: 'GET', path, headers: auth() }), 414, 'uri_too_long');
  });

  it.each(PARAMETERIZED.map((command) => [command.http.method, command.http.path] as const))(
    'every parameterized route: %s %s with a 10,000-character parameter',
    async (method, pattern) => {
      const response = await api.send({
        method,
        path: pathOf(pattern, LONG),
        headers: { ...auth(), 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
      });
      expectProblem(response, 414, 'uri_too_long');
      expect(response.body).not.toContain(LONG.slice(0, 100));
    },
  );

  it('a malformed percent-encoding in the path → 400 problem+json, not echoed', async () => {
    const response = await api.send({ method: 'GET', path: '/v1/workspaces/%zz%E0%A4%A', headers: auth() });
    expectProblem(response, 400);
    expect(response.body).not.toContain('%zz');
  });

  it('an unknown route, and a known path with another method → 404 problem+json', async () => {
    expectProblem(await api.send({ method: 'GET', path: '/v1/nope' }), 404, 'not_found');
    expectProblem(await api.send({ method: 'DELETE', path: '/healthz' }), 404, 'not_found');
    expectProblem(await api.send({ method: 'OPTIONS', path: '/v1/workspaces' }), 404, 'not_found');
  });
});

describe('body errors on every route that takes a body', () => {
  const cases = WITH_BODY.map((command) => [command.http.method, command.http.path] as const);

  it.each(cases)('%s %s: JSON null → 400 validation_failed', async (method, pattern) => {
    const response = await api.send({
      method,
      path: pathOf(pattern, randomUUID()),
      headers: { 'content-type': 'application/json' },
      body: 'null',
    });
    expectProblem(response, 400, 'validation_failed');
  });

  it.each(cases)('%s %s: malformed JSON, text/plain, a malformed content type', async (method, pattern) => {
    const path = pathOf(pattern, randomUUID());
    const send = (contentType: string, body: string) =>
      api.send({ method, path, headers: { 'content-type': contentType }, body });
    expectProblem(await send('application/json', '{"a": '), 400, 'malformed_json');
    expectProblem(await send('text/plain', 'a'), 415, 'unsupported_media_type');
    expectProblem(await send('application/json/x', '{}'), 415, 'unsupported_media_type');
    expectProblem(await send(';;;', '{}'), 415, 'unsupported_media_type');
  });

  // A key written twice is resolved last-wins by JSON.parse: what the caller wrote and what we act on could differ.
  it.each(cases)(
    '%s %s: a key written twice anywhere in the body → 400 duplicate_key naming it',
    async (method, pattern) => {
      const path = pathOf(pattern, randomUUID());
      const response = await api.send({
        method,
        path,
        headers: { 'content-type': 'application/json' },
        body: '{"outer": {"name": "a", "name": "b"}}',
      });
      expectProblem(response, 400, 'duplicate_key');
      expect(response.json().detail).toContain('outer.name');
    },
  );

  it('GraphQL: a key written twice in the body or in variables → 400 duplicate_key', async () => {
    for (const body of [
      '{"query": "{ __typename }", "query": "{ __typename }"}',
      '{"query": "query($a: String) { __typename }", "variables": {"a": "x", "a": "y"}}',
    ]) {
      const response = await api.send({
        method: 'POST',
        path: '/graphql',
        headers: { ...auth(), 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.json())).toContain('duplicate_key');
    }
  });

  it('a body over the limit → 413 payload_too_large', async () => {
    const response = await api.send({
      method: 'POST',
      path: '/v1/workspaces',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectProblem(response, 413, 'payload_too_large');
  });

  it('JSON null never bumps a workspace generation; an absent body still does', async () => {
    const workspace = await createTestWorkspace(api.db, tenant.id);
    const generationOf = async () =>
      (await api.db.withTenant(tenant.id, (tx) => tx.workspace.findUnique({ where: { id: workspace.id } })))
        ?.generation;
    const before = await generationOf();
    const path = `/v1/workspaces/${workspace.id}/generation`;
    const refused = await api.send({
      method: 'POST',
      path,
      headers: { ...auth(), 'content-type': 'application/json' },
      body: 'null',
    });
    expectProblem(refused, 400, 'validation_failed');
    expect(await generationOf()).toBe(before);

    const bumped = await api.send({ method: 'POST', path, headers: auth() });
    expect(bumped.status).toBe(200);
    expect(await generationOf()).toBe((before ?? 0) + 1);
  });

  it('sign-in with JSON null or malformed JSON → 400 problem+json', async () => {
    const send = (body: string) =>
      api.send({
        method: 'POST',
        path: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expectProblem(await send('null'), 400, 'validation_failed');
    expectProblem(await send('{"email": '), 400, 'malformed_json');
  });
});

/** Writes raw bytes to the API and reads until it closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(bytes);
  });
}

function parseRaw(text: string): { status: number; contentType: string; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
  return { status, contentType, body };
}

describe('malformed HTTP answers problem+json', () => {
  it('a request line Node cannot parse → 400 problem+json', async () => {
    const answer = parseRaw(
      await rawExchange(api.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
    );
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('an HTTP/1.1 request without Host → 400 problem+json (Node answers it with an empty body otherwise)', async () => {
    for (const path of ['/healthz', '/v1/workspaces', '/v1/no-such-route']) {
      const answer = parseRaw(
        await rawExchange(api.port, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`),
      );
      expect({ path, status: answer.status, contentType: answer.contentType }).toEqual({
        path,
        status: 400,
        contentType: expect.stringMatching(/^application\/problem\+json/),
      });
      expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'bad_request' });
    }
    // GraphQL answers in its own error shape, with the same code.
    const graphql = parseRaw(
      await rawExchange(
        api.port,
        'GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(graphql.status).toBe(400);
    expect(JSON.parse(graphql.body)).toMatchObject({ errors: [{ extensions: { code: 'bad_request' } }] });
  });

  it('headers over the size limit → 431 problem+json', async () => {
    const answer = parseRaw(
      await rawExchange(
        api.port,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(431);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'request_header_fields_too_large' });
  });
});
