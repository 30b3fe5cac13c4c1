import { Writable } from 'node:stream';
import { createLogger } from './create-logger.js';
import { NestLoggerAdapter } from './nest-logger-adapter.js';

// One canary pushed through every way a secret reaches a log line (a name in any case, at
// any depth, a URL's query string or userinfo, argv, env, headers, stderr, an error's message, stack and
// causes), then the whole output is grepped for it.

const CANARY = 'cAnArY7x9q2Zr4Lp8Vw3Kd6Ns1Ht5Bm0';

function capture(secretKeys: readonly string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ name: 'canary', level: 'trace', secretKeys, destination });
  return { logger, lines };
}

function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let i = 0; i < depth; i += 1) value = { [`level${depth - i}`]: value };
  return value;
}

class UpstreamError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

const FIELD_CASES: readonly [string, Record<string, unknown>][] = [
  ['AUTHORIZATION in upper case', { AUTHORIZATION: `Bearer ${CANARY}` }],
  ['Authorization in a request', { req: { Authorization: `Bearer ${CANARY}` } }],
  ['x-api-key', { 'x-api-key': CANARY }],
  ['X-Api-Key nested', { upstream: { request: { 'X-Api-Key': CANARY } } }],
  ['an api_key query parameter', { url: `https://mcp.example.com/sse?api_key=${CANARY}&x=1` }],
  ['a token in a relative URL query', { url: `/v1/callback?code=${CANARY}` }],
  ['a URL userinfo', { target: `https://user:${CANARY}@mcp.example.com/mcp` }],
  ['a URL inside free text', { detail: `GET https://mcp.example.com/x?sig=${CANARY} failed` }],
  ['an args array', { command: 'npx', args: ['-y', 'server', '--token', CANARY] }],
  ['an argv array', { child: { argv: ['node', `--secret=${CANARY}`] } }],
  ['stderr', { stderr: `fatal: bad credentials ${CANARY}\n` }],
  ['stdout', { child: { stdout: CANARY } }],
  ['an env value', { spawn: { env: { UPSTREAM: CANARY } } }],
  ['an ENV in upper case', { ENV: { ANYTHING: CANARY } }],
  ['headers nested five levels deep', nested(5, { headers: { 'x-custom': CANARY } })],
  ['authorization nested eight levels deep', nested(8, { authorization: CANARY })],
  ['a token-named field twelve levels deep', nested(12, { upstreamAccessToken: CANARY })],
  ['a client_secret in snake case', { oauth: { CLIENT_SECRET: CANARY } }],
  ['a password in mixed case', { db: { PassWord: CANARY } }],
  ['a cookie header', { headers: { Cookie: `sid=${CANARY}` } }],
  ['a set-cookie array', { res: { 'Set-Cookie': [`sid=${CANARY}`] } }],
  ['a headers array of pairs', { request: { headers: [['authorization', CANARY]] } }],
  ['a secret config variable in another case', { config: { database_url: CANARY } }],
  ['a Bearer credential in text', { note: `upstream said: Authorization: Bearer ${CANARY}` }],
  ['a key=value credential in text', { note: `refused token=${CANARY}` }],
  ['an API token of ours in text', { note: `seen ghu_${CANARY}${CANARY.slice(0, 11)} in a body` }],
  ['a JWT in text', { note: `id token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${CANARY}.c2lnbmF0dXJlX${CANARY}` }],
  // A header's value in text is the whole rest of it: a scheme and its credential, every cookie of a Cookie.
  ['an Authorization header of another scheme in text', { note: `sent Authorization: Token ${CANARY}` }],
  ['an authorization pair with a scheme in text', { note: `retry with authorization=ApiKey ${CANARY}` }],
  ['a JSON authorization with a scheme in text', { body: `{"Authorization": "SSWS ${CANARY}", "a": 1}` }],
  ['the second cookie of a Cookie header in text', { note: `Cookie: theme=dark; session=${CANARY}` }],
  // Headers under other names: Node's rawHeaders pairs, a client's requestHeaders.
  ['a rawHeaders array', { req: { rawHeaders: ['host', 'mcp.example.com', 'x-api-key', CANARY] } }],
  ['a requestHeaders object', { upstream: { requestHeaders: { 'x-upstream-auth': CANARY } } }],
  ['a response_headers object', { response_headers: { 'x-session': CANARY } }],
  ['a relative URL query inside free text', { note: `GET /oauth/callback?code=${CANARY}&state=s failed` }],
];

describe('log redaction canary', () => {
  it.each(FIELD_CASES)('never prints the canary through %s', (_label, fields) => {
    const { logger, lines } = capture(['DATABASE_URL']);
    logger.info(fields, 'with canary');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(CANARY);
    expect(() => JSON.parse(lines[0] ?? '')).not.toThrow();
  });

  it('scrubs an error message, its stack, its own fields and every cause', () => {
    const { logger, lines } = capture();
    const root = new Error(`connect to https://u:${CANARY}@db.example/x failed`);
    const middle = new UpstreamError(`upstream refused Bearer ${CANARY}`, `stderr says ${CANARY}`, {
      cause: root,
    });
    const outer = new Error(`lease failed (token=${CANARY})`, { cause: middle });
    logger.error({ err: outer }, 'lease failed');
    logger.error({ error: middle }, 'second key');
    logger.error({ upstream: { failure: outer } }, 'nested error');
    logger.error(outer);
    logger.error(new AggregateError([root, middle], `two failures, api_key=${CANARY}`));
    const text = lines.join('\n');
    expect(lines).toHaveLength(5);
    expect(text).not.toContain(CANARY);
    // What helps a reader stays: the type, the chain, the message around the secret, the stack frames.
    const first = JSON.parse(lines[0] ?? '{}') as { err?: Record<string, unknown> };
    expect(first.err).toMatchObject({
      type: 'Error',
      cause: { type: 'UpstreamError', cause: { type: 'Error' } },
    });
    expect(String(first.err?.message)).toContain('lease failed');
    expect(String(first.err?.stack)).toContain('redaction-canary.spec');
  });

  it('scrubs the message string and its interpolation arguments', () => {
    const { logger, lines } = capture();
    logger.warn(`retrying https://mcp.example.com/?api_key=${CANARY}`);
    logger.warn({ attempt: 2 }, 'upstream answered %s', `Bearer ${CANARY}`);
    logger.warn(`failed: token=${CANARY}`);
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(CANARY);
  });

  it('scrubs child bindings', () => {
    const { logger, lines } = capture();
    logger.child({ upstream: { headers: { authorization: CANARY } }, Token: CANARY }).info('bound');
    expect(lines.join('\n')).not.toContain(CANARY);
  });

  it('scrubs what Nest logs through the adapter, errors included', () => {
    const { logger, lines } = capture();
    const adapter = new NestLoggerAdapter(logger);
    adapter.error(new Error(`refused Bearer ${CANARY}`), 'ExceptionsHandler');
    adapter.error(`boom token=${CANARY}`, `Error: boom token=${CANARY}\n    at x`, 'ExceptionsHandler');
    adapter.warn({ headers: { AUTHORIZATION: CANARY } }, 'Somewhere');
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(CANARY);
  });

  it('never throws out of a log call for a value it cannot read (a throwing getter, a revoked proxy)', () => {
    const { logger, lines } = capture();
    const revoked = Proxy.revocable({ token: CANARY }, {});
    revoked.revoke();
    class Failing extends Error {
      get details(): string {
        throw new Error(`cannot read token=${CANARY}`);
      }
    }
    const throwing = {
      ok: 1,
      get broken(): string {
        throw new Error('getter');
      },
    };
    expect(() =>
      logger.info({ throwing, nested: { throwing }, revoked: revoked.proxy }, 'unreadable'),
    ).not.toThrow();
    expect(() => logger.error({ err: new Failing('x') }, 'failing')).not.toThrow();
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain(CANARY);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      throwing: { ok: 1 },
      nested: { throwing: { ok: 1 } },
    });
  });

  it('survives cycles and hostile depth, and never mutates what the caller logged', () => {
    const { logger, lines } = capture();
    const cyclic: Record<string, unknown> = { name: 'a', headers: { authorization: CANARY } };
    cyclic.self = cyclic;
    const deep = nested(5_000, { token: CANARY });
    logger.info({ cyclic, deep }, 'hostile');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(CANARY);
    expect(cyclic.headers).toEqual({ authorization: CANARY });
  });
});
