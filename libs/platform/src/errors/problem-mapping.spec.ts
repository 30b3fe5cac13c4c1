import { isProblemCode } from '@gatehouse/contracts';
import { ProblemError, problemJson } from './problem-error.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS, toProblem } from './problem-mapping.js';

function fastifyError(code: string, statusCode: number): Error {
  return Object.assign(new Error(`fastify says ${code} with secret detail`), { code, statusCode });
}

describe('problemJson', () => {
  it('builds an RFC 9457 document with a stable code', () => {
    expect(
      problemJson({ status: 404, code: 'not_found', title: 'Not found', detail: 'No such workspace.' }),
    ).toEqual({
      type: 'urn:gatehouse:problem:not_found',
      title: 'Not found',
      status: 404,
      code: 'not_found',
      detail: 'No such workspace.',
    });
  });
});

describe('toProblem', () => {
  it('sends a ProblemError as it is', () => {
    const error = new ProblemError({
      status: 409,
      code: 'conflict',
      title: 'Conflict',
      detail: 'Pick another name.',
    });
    expect(toProblem(error)).toEqual({
      problem: {
        type: 'urn:gatehouse:problem:conflict',
        title: 'Conflict',
        status: 409,
        code: 'conflict',
        detail: 'Pick another name.',
      },
      unexpected: false,
    });
  });

  it.each([
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 400, 'malformed_json'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 400, 'malformed_json'],
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 413, 'payload_too_large'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 415, 'unsupported_media_type'],
  ])('maps Fastify %s to %i %s', (code, statusCode, status, problemCode) => {
    const mapped = toProblem(fastifyError(code, statusCode));
    expect(mapped.problem).toMatchObject({ status, code: problemCode });
    expect(mapped.unexpected).toBe(false);
    expect(JSON.stringify(mapped.problem)).not.toContain('secret detail');
  });

  it('sees a Fastify error wrapped as the cause of a framework exception', () => {
    const wrapped = Object.assign(new Error('Bad Request'), {
      getStatus: () => 400,
      cause: fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400),
    });
    expect(toProblem(wrapped).problem.code).toBe('malformed_json');
  });

  it.each([
    [401, 'unauthenticated'],
    [429, 'rate_limited'],
  ])('answers a bare %i with the one code of its meaning (%s), never a synonym', (status, code) => {
    expect(toProblem({ statusCode: status }).problem).toMatchObject({ status, code });
  });

  it('answers only codes of the one list', () => {
    for (let status = 400; status < 600; status += 1) {
      expect(isProblemCode(toProblem({ statusCode: status }).problem.code)).toBe(true);
    }
  });

  it('maps other client errors by status without their message', () => {
    const notFound = Object.assign(new Error('Cannot GET /v1/x?token=abc'), { getStatus: () => 404 });
    expect(toProblem(notFound)).toEqual({
      problem: {
        type: 'urn:gatehouse:problem:not_found',
        title: 'Not found',
        status: 404,
        code: 'not_found',
        detail: 'No such resource.',
      },
      unexpected: false,
    });
    expect(toProblem({ statusCode: 418 }).problem).toMatchObject({ status: 418, code: 'client_error' });
  });

  it.each([
    ['a plain error', new Error('connect ECONNREFUSED postgresql://app:pw@db')],
    ['a 5xx framework error', Object.assign(new Error('upstream said no'), { statusCode: 502 })],
    ['a thrown string', 'oops'],
    ['undefined', undefined],
  ])('answers %s with a generic 500 and flags it for logging', (_label, error) => {
    const mapped = toProblem(error);
    expect(mapped.unexpected).toBe(true);
    expect(mapped.problem).toMatchObject({ status: 500, code: 'internal', title: 'Internal server error' });
    expect(JSON.stringify(mapped.problem)).not.toMatch(/ECONNREFUSED|upstream|oops/);
  });

  it('flags a 5xx ProblemError as unexpected but keeps its code', () => {
    const mapped = toProblem(new ProblemError({ status: 500, code: 'internal', title: 'Internal' }));
    expect(mapped).toMatchObject({ unexpected: true, problem: { status: 500, code: 'internal' } });
  });

  it('answers a ProblemError dependency_unavailable as written, with Retry-After and not as a fault of ours', () => {
    const mapped = toProblem(
      new ProblemError({
        status: 503,
        code: 'dependency_unavailable',
        title: 'Unavailable',
        detail: 'Redis.',
      }),
    );
    expect(mapped).toEqual({
      unexpected: false,
      problem: expect.objectContaining({ status: 503, code: 'dependency_unavailable', detail: 'Redis.' }),
      unavailable: { retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS, cause: 'dependency_unavailable' },
    });
  });

  const adapterError = (cause: Record<string, unknown>) =>
    Object.assign(new Error('Invalid `prisma.$queryRaw()` invocation: host db.internal:5432'), {
      code: 'P2010',
      meta: { driverAdapterError: Object.assign(new Error('DriverAdapterError'), { cause }) },
    });

  it.each([
    [
      'Prisma could not start the transaction in time (P2028)',
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
        code: 'P2028',
      }),
      'P2028',
    ],
    [
      'Prisma timed out waiting for a pooled connection (P2024)',
      Object.assign(new Error('x'), { code: 'P2024' }),
      'P2024',
    ],
    [
      "Prisma can't reach the server (P1001)",
      Object.assign(new Error('db.internal:5432'), { code: 'P1001' }),
      'P1001',
    ],
    [
      'the adapter: not reachable',
      adapterError({ kind: 'DatabaseNotReachable', host: 'db', port: 5432 }),
      'DatabaseNotReachable',
    ],
    [
      'the adapter: too many connections',
      adapterError({ kind: 'TooManyConnections', cause: 'sorry' }),
      'TooManyConnections',
    ],
    [
      'the adapter: a server shutting down (57P01)',
      adapterError({ kind: 'postgres', code: '57P01', originalCode: '57P01' }),
      '57P01',
    ],
    [
      'pg: a connection exception (08006)',
      Object.assign(new Error('connection failure'), { code: '08006' }),
      '08006',
    ],
    [
      'pg: too many connections (53300), as a cause',
      new Error('query failed', { cause: { code: '53300' } }),
      '53300',
    ],
    ["pg-pool's connection timeout", new Error('timeout exceeded when trying to connect'), 'pool_timeout'],
  ])(
    'answers a dependency momentarily away (%s) 503 dependency_unavailable with Retry-After',
    (_label, error, cause) => {
      const mapped = toProblem(error);
      expect(mapped).toEqual({
        unexpected: false,
        problem: expect.objectContaining({
          status: 503,
          code: 'dependency_unavailable',
          title: 'Unavailable',
        }),
        unavailable: { retryAfterSeconds: 1, cause },
      });
      expect(JSON.stringify(mapped.problem)).not.toMatch(/db\.internal|Prisma|prisma|timeout exceeded/);
    },
  );

  it.each([
    [
      'an expired transaction (P2028, a transaction held too long)',
      Object.assign(
        new Error('Transaction API error: A query cannot be executed on an expired transaction.'),
        {
          code: 'P2028',
        },
      ),
    ],
    [
      'a closed transaction (P2028, our misuse)',
      Object.assign(
        new Error('Transaction API error: Transaction already closed: A commit cannot be executed'),
        {
          code: 'P2028',
        },
      ),
    ],
    [
      'a query Postgres refused (the adapter, 42703)',
      adapterError({ kind: 'postgres', code: '42703', originalCode: '42703' }),
    ],
    [
      'a socket error of no known source',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
  ])('keeps %s a generic 500', (_label, error) => {
    expect(toProblem(error)).toEqual({
      unexpected: true,
      problem: expect.objectContaining({ status: 500, code: 'internal' }),
    });
  });
  it.each([
    ['a pg error (text, 22021)', Object.assign(new Error('invalid byte sequence 0x00'), { code: '22021' })],
    ['a pg error (jsonb, 22P05)', Object.assign(new Error('unsupported Unicode escape'), { code: '22P05' })],
    [
      'a Prisma error over the pg driver adapter',
      Object.assign(new Error('Invalid `tx.workspace.update()` invocation'), {
        code: 'P2039',
        meta: {
          driverAdapterError: Object.assign(new Error('invalid byte sequence'), {
            cause: { kind: 'postgres', code: '22021', originalCode: '22021' },
          }),
        },
      }),
    ],
    ['an error wrapping one as its cause', new Error('query failed', { cause: { code: '22P05' } })],
  ])('answers NUL refused by Postgres (%s) with 400 invalid_characters', (_label, error) => {
    expect(toProblem(error)).toEqual({
      problem: expect.objectContaining({ status: 400, code: 'invalid_characters' }),
      unexpected: false,
    });
  });

  it('keeps other SQLSTATEs a generic 500', () => {
    const mapped = toProblem(Object.assign(new Error('deadlock'), { code: '40P01' }));
    expect(mapped).toMatchObject({ unexpected: true, problem: { status: 500, code: 'internal' } });
  });
});
