import { decodeServerEntry, type DecodedEntry } from './definition-decoder';
import {
  MAX_ARGUMENTS_PER_ENTRY,
  MAX_ENTRY_DEPTH,
  MAX_PROBLEMS_PER_ENTRY,
  type EntryProblem,
} from './decode-problem';
import type { SourceRef } from './tier';

const project: SourceRef = { tier: 'project', origin: 'project:ws' };
const managed: SourceRef = { tier: 'managed', origin: 'managed:org' };

function decode(raw: unknown, source: SourceRef = project): DecodedEntry {
  return decodeServerEntry('srv', raw, source);
}

function problemsOf(raw: unknown, source: SourceRef = project): readonly EntryProblem[] {
  const decoded = decode(raw, source);
  if (decoded.kind !== 'malformed') throw new Error(`expected malformed, got ${decoded.kind}`);
  return decoded.problems;
}

/** Parses JSON so `__proto__` members are own data properties, as in a real document. */
function json(text: string): unknown {
  return JSON.parse(text);
}

describe('decodeServerEntry: transports', () => {
  it('parses references into parts', () => {
    const decoded = decode({ command: 'npx', args: ['--region=${REGION:-eu}'] });
    expect(
      decoded.kind === 'valid' &&
        decoded.definition.transport.kind === 'stdio' &&
        decoded.definition.transport.args,
    ).toEqual([
      [
        { kind: 'text', text: '--region=' },
        { kind: 'variable', name: 'REGION', fallback: 'eu' },
      ],
    ]);
  });

  it('decodes a stdio entry without type (the .mcp.json default)', () => {
    const decoded = decode({ command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, cwd: '/srv' });
    expect(decoded).toEqual({
      kind: 'valid',
      name: 'srv',
      source: project,
      definition: {
        transport: {
          kind: 'stdio',
          // Reference-free values stay plain strings; values with references become parts.
          command: 'npx',
          args: ['-y', 'pkg'],
          env: [{ key: 'A', value: '1' }],
          cwd: '/srv',
        },
        requiresTrustedWorkspace: false,
        options: { elicitation: false },
      },
    });
  });

  it.each(['http', 'streamable-http'])('decodes type %s as http', (type) => {
    const decoded = decode({ type, url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } });
    expect(decoded.kind).toBe('valid');
    if (decoded.kind === 'valid') expect(decoded.definition.transport.kind).toBe('http');
  });

  it.each([
    ['sse', 'sse'],
    ['ws', 'ws'],
    ['websocket', 'ws'],
  ])('puts type %s in the rejected bucket, whatever else the entry says', (type, transport) => {
    expect(decode({ type, url: 'https://x.example.com/sse', bogus: true, approved: true })).toEqual({
      kind: 'rejected',
      name: 'srv',
      source: project,
      transport,
    });
  });

  it.each([
    [{ url: 'https://x.example.com/mcp' }, 'url_without_type', []],
    [{ env: { A: '1' } }, 'missing_transport', []],
    [{ type: 'grpc', url: 'https://x' }, 'unknown_transport', ['type']],
    [{ type: 7, command: 'x' }, 'wrong_type', ['type']],
  ])('refuses %p as %s', (raw, reason, path) => {
    expect(problemsOf(raw)).toContainEqual({ reason, path });
  });

  it('refuses mixed transport fields by name', () => {
    expect(problemsOf({ command: 'npx', url: 'https://x.example.com', headers: {} })).toEqual([
      { reason: 'mixed_transport_fields', path: ['url'] },
      { reason: 'mixed_transport_fields', path: ['headers'] },
    ]);
    expect(problemsOf({ type: 'http', url: 'https://x.example.com', command: 'x', env: {} })).toEqual([
      { reason: 'mixed_transport_fields', path: ['command'] },
      { reason: 'mixed_transport_fields', path: ['env'] },
    ]);
    expect(problemsOf({ command: 'x', principalHeader: 'X-P' })).toEqual([
      { reason: 'mixed_transport_fields', path: ['principalHeader'] },
    ]);
  });
});

describe('decodeServerEntry: refusals name the path, never the value', () => {
  it.each([
    [{ command: ['npx'] }, 'wrong_type', ['command']],
    [{ command: '' }, 'empty_value', ['command']],
    [{ command: 'x', args: 'a b' }, 'wrong_type', ['args']],
    [{ command: 'x', args: ['a', 3] }, 'wrong_type', ['args', 1]],
    [{ command: 'x', env: { A: 1 } }, 'wrong_type', ['env', 'A']],
    [{ command: 'x', env: { 'BAD-NAME': 'v' } }, 'invalid_env_name', ['env', 'BAD-NAME']],
    // A valid env or header name is named however it looks: keys are never hidden.
    [{ command: 'x', env: { npm_config_node_options: 1 } }, 'wrong_type', ['env', 'npm_config_node_options']],
    [
      { command: 'x', env: { ghp_0123456789abcdefABCDEF0123456789abcd: '${A B}' } },
      'invalid_variable_reference',
      ['env', 'ghp_0123456789abcdefABCDEF0123456789abcd'],
    ],
    [
      { type: 'http', url: 'https://x', headers: { ghp_0123456789abcdefABCDEF0123456789abcd: 'a\nb' } },
      'invalid_header_value',
      ['headers', 'ghp_0123456789abcdefABCDEF0123456789abcd'],
    ],
    [{ command: 'x', cwd: '' }, 'empty_value', ['cwd']],
    [{ command: 'x', args: ['${A B}'] }, 'invalid_variable_reference', ['args', 0]],
    [{ command: 'x', requiresTrustedWorkspace: 'yes' }, 'wrong_type', ['requiresTrustedWorkspace']],
    [{ type: 'http' }, 'missing_field', ['url']],
    [
      { type: 'http', url: 'https://x', headers: { 'Bad Header': 'v' } },
      'invalid_header_name',
      ['headers', '#0'],
    ],
    [
      { type: 'http', url: 'https://x', headers: { A: 'x\r\nInjected: 1' } },
      'invalid_header_value',
      ['headers', 'A'],
    ],
    [{ type: 'http', url: 'https://x', headers: { a: '1', A: '2' } }, 'duplicate_header', ['headers', 'A']],
    [
      { type: 'http', url: 'https://x', headersHelper: 'get-headers --json' },
      'wrong_type',
      ['headersHelper'],
    ],
    [{ type: 'http', url: 'https://x', headersHelper: [] }, 'empty_value', ['headersHelper']],
    [{ type: 'http', url: 'https://x', oauth: { scopes: ['a b'] } }, 'wrong_type', ['oauth', 'scopes', 0]],
    [
      { type: 'http', url: 'https://x', oauth: { callbackPort: 8080 } },
      'unknown_key',
      ['oauth', 'callbackPort'],
    ],
    [{ command: 'x', timeout: 5 }, 'unknown_key', ['timeout']],
    [{ command: 'x', disabled: true }, 'unknown_key', ['disabled']],
  ])('%p -> %s', (raw, reason, path) => {
    expect(problemsOf(raw)).toContainEqual({ reason, path });
  });

  it.each([
    'approved',
    'autoApprove',
    'alwaysAllow',
    'trusted',
    'trustLevel',
    'preApproved',
    'approval',
    'isTrusted',
  ])('refuses the approval/trust claim %s', (key) => {
    expect(problemsOf({ command: 'x', [key]: true })).toEqual([{ reason: 'approval_claim', path: [key] }]);
  });

  it('accepts requiresTrustedWorkspace: it asks for a check, it claims nothing', () => {
    const decoded = decode({ command: 'x', requiresTrustedWorkspace: true });
    expect(decoded.kind === 'valid' && decoded.definition.requiresTrustedWorkspace).toBe(true);
  });

  it('refuses a client secret anywhere it is written, without its value', () => {
    const secret = 'cs_live_canary_0123456789';
    const problems = problemsOf({
      type: 'http',
      url: 'https://x.example.com',
      oauth: { clientId: 'abc', clientSecret: secret },
      client_secret: secret,
    });
    expect(problems).toEqual([
      { reason: 'client_secret_in_definition', path: ['client_secret'] },
      { reason: 'client_secret_in_definition', path: ['oauth', 'clientSecret'] },
    ]);
    expect(JSON.stringify(problems)).not.toContain(secret);
  });

  it('never quotes a value, and hides a key that looks like a credential', () => {
    const token = 'ghp_CANARY0123456789abcdefABCDEF0123456789';
    const problems = problemsOf({ command: 'x', env: { A: 42 }, [token]: token, args: [token, 5] });
    const text = JSON.stringify(problems);
    expect(text).not.toContain(token);
    expect(problems).toContainEqual({ reason: 'unknown_key', path: ['#2'] });
  });

  it('refuses members named __proto__ at any depth', () => {
    expect(problemsOf(json('{"command":"x","env":{"__proto__":{"A":"1"}}}'))).toEqual([
      { reason: 'forbidden_key', path: ['env', '__proto__'] },
    ]);
    expect(problemsOf(json('{"command":"x","__proto__":"y"}'))).toEqual([
      { reason: 'forbidden_key', path: ['__proto__'] },
    ]);
  });

  it('refuses nesting past the bound, and survives hostile depth without recursion', () => {
    let nested: unknown = {};
    for (let i = 0; i < MAX_ENTRY_DEPTH; i += 1) nested = { a: nested };
    const problems = problemsOf({ command: 'x', toolFaces: nested });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.reason).toBe('too_deep');
    expect(problems[0]?.path.length).toBe(MAX_ENTRY_DEPTH + 1);

    const hostile = JSON.parse(`{"command":"x","args":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(problemsOf(hostile)[0]?.reason).toBe('too_deep');
  });

  it('accepts nesting at the bound (the format itself needs four levels)', () => {
    const decoded = decode({
      command: 'x',
      toolFaces: { write: { renderHints: { approvalCard: ['path'] } } },
    });
    expect(decoded.kind).toBe('valid');
  });

  it('bounds the number of problems reported', () => {
    const env: Record<string, number> = {};
    for (let i = 0; i < 500; i += 1) env[`V${i}`] = i;
    expect(problemsOf({ command: 'x', env })).toHaveLength(MAX_PROBLEMS_PER_ENTRY);
  });

  it('refuses containers that are not plain data', () => {
    expect(problemsOf({ command: 'x', env: new Map([['A', '1']]) })).toEqual([
      { reason: 'wrong_type', path: ['env'] },
    ]);
    expect(problemsOf({ command: 'x', args: [new Date(0)] })).toEqual([
      { reason: 'wrong_type', path: ['args', 0] },
    ]);
  });

  it('refuses a non-object entry', () => {
    expect(problemsOf('npx -y pkg')).toEqual([{ reason: 'not_an_object', path: [] }]);
    expect(problemsOf(null)).toEqual([{ reason: 'not_an_object', path: [] }]);
    expect(problemsOf([])).toEqual([{ reason: 'not_an_object', path: [] }]);
  });
});

describe('decodeServerEntry: http details', () => {
  it('keeps the header helper as an exact argv, never expanded', () => {
    const decoded = decode({
      type: 'http',
      url: 'https://x.example.com',
      headersHelper: ['/usr/bin/get-token', '${NOT_EXPANDED}'],
    });
    if (decoded.kind !== 'valid' || decoded.definition.transport.kind !== 'http')
      throw new Error('expected valid http');
    expect(decoded.definition.transport.headersHelper).toEqual(['/usr/bin/get-token', '${NOT_EXPANDED}']);
  });

  it('reads oauth settings', () => {
    const decoded = decode({
      type: 'http',
      url: 'https://x.example.com',
      oauth: { clientId: 'gh-app', scopes: ['repo', 'read:org'], allowSharedCredential: true },
    });
    if (decoded.kind !== 'valid' || decoded.definition.transport.kind !== 'http')
      throw new Error('expected valid http');
    expect(decoded.definition.transport.oauth).toEqual({
      clientId: 'gh-app',
      scopes: ['repo', 'read:org'],
      allowSharedCredential: true,
    });
  });

  it('refuses a principal header that collides with a static header, in any case', () => {
    expect(
      problemsOf({
        type: 'http',
        url: 'https://x',
        headers: { 'x-principal': 'a' },
        principalHeader: 'X-Principal',
      }),
    ).toEqual([
      {
        reason: 'invalid_option',
        option: 'principalHeader',
        detail: 'header_collision',
        path: ['principalHeader'],
      },
    ]);
  });
});

describe('decodeServerEntry: per-server options go through the catalog readers', () => {
  it('one bad tool in toolAxes refuses the entry', () => {
    expect(
      problemsOf({ command: 'x', toolAxes: { ok: { effect: 'read' }, bad: { effect: 'sometimes' } } }),
    ).toEqual([
      {
        reason: 'invalid_option',
        option: 'toolAxes',
        detail: 'not_in_vocabulary',
        path: ['toolAxes', 'bad', 'effect'],
      },
    ]);
  });

  it.each([999, 2_147_483_648, 1500.5, '5000', null, 0, -1])(
    'startupTimeoutMs %p refuses the entry',
    (value) => {
      const problems = problemsOf({ command: 'x', startupTimeoutMs: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({
        reason: 'invalid_option',
        option: 'startupTimeoutMs',
        path: ['startupTimeoutMs'],
      });
    },
  );

  it.each([1000, 2_147_483_647])('startupTimeoutMs %p is accepted', (value) => {
    const decoded = decode({ command: 'x', startupTimeoutMs: value });
    expect(decoded.kind === 'valid' && decoded.definition.options.startupTimeoutMs).toBe(value);
  });

  it('accepts contentOrigin only from the managed tier', () => {
    expect(problemsOf({ command: 'x', contentOrigin: 'local' }, project)).toEqual([
      {
        reason: 'invalid_option',
        option: 'contentOrigin',
        detail: 'not_deployment_plane',
        path: ['contentOrigin'],
      },
    ]);
    for (const tier of ['local', 'user', 'plugin'] as const) {
      expect(decode({ command: 'x', contentOrigin: 'local' }, { tier, origin: `${tier}:o` }).kind).toBe(
        'malformed',
      );
    }
    const decoded = decode({ command: 'x', contentOrigin: 'local' }, managed);
    expect(decoded.kind === 'valid' && decoded.definition.options.contentOrigin).toBe('local');
  });

  it('hides a credential-looking tool name in an option path', () => {
    const token = 'ghp_CANARY0123456789abcdefABCDEF0123456789';
    const problems = problemsOf({ command: 'x', toolAxes: { fine: {}, [token]: { effect: 'nope' } } });
    expect(problems).toEqual([
      {
        reason: 'invalid_option',
        option: 'toolAxes',
        detail: 'not_in_vocabulary',
        path: ['toolAxes', '#1', 'effect'],
      },
    ]);
  });

  it('reports every refused option at once', () => {
    const problems = problemsOf({ command: 'x', allowTools: 'a', elicitation: 'yes' });
    expect(problems.map((p) => p.option)).toEqual(['allowTools', 'elicitation']);
  });
});

describe('decodeServerEntry: argument count', () => {
  it('refuses more than MAX_ARGUMENTS_PER_ENTRY arguments, and reads exactly that many', () => {
    const many = Array.from({ length: MAX_ARGUMENTS_PER_ENTRY + 1 }, () => 'a');
    expect(problemsOf({ command: 'x', args: many })).toEqual([
      { reason: 'too_many_arguments', path: ['args'] },
    ]);
    expect(decode({ command: 'x', args: many.slice(1) }).kind).toBe('valid');
    expect(problemsOf({ type: 'http', url: 'https://h.example/', headersHelper: many })).toEqual([
      { reason: 'too_many_arguments', path: ['headersHelper'] },
    ]);
  });
});
