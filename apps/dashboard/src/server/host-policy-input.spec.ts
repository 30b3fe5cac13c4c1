import type { ApiProblem } from './api-problem';
import {
  formatArgv,
  formatArgvLines,
  hostPolicyFieldErrors,
  parseArgvLines,
  parseCidrLines,
  parseOriginLines,
  poolsAllowingCommand,
} from './host-policy-input';

function problem(overrides: Partial<ApiProblem>): ApiProblem {
  return {
    code: 'validation_failed',
    title: 'Invalid input',
    status: 400,
    detail: null,
    errors: [],
    tenants: [],
    ...overrides,
  };
}

describe('parseArgvLines', () => {
  it('reads one JSON array per line, skipping blank lines and keeping each entry’s line', () => {
    const parsed = parseArgvLines('["npx", "-y", "@acme/deploy-mcp"]\n\n  ["node", "/srv/my server.js"]  \n');
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries).toEqual([
      ['npx', '-y', '@acme/deploy-mcp'],
      ['node', '/srv/my server.js'],
    ]);
    expect(parsed.lines).toEqual([1, 3]);
  });

  it('keeps spaces and quotes inside a string exactly', () => {
    expect(parseArgvLines('["sh", "-c", "echo \\"a b\\""]').entries).toEqual([['sh', '-c', 'echo "a b"']]);
  });

  it('reads an empty text as no commands', () => {
    expect(parseArgvLines('  \n\n')).toEqual({ entries: [], lines: [], errors: [] });
  });

  it('refuses space-separated words, non-string items, empty arrays and empty strings, naming each line', () => {
    const parsed = parseArgvLines('npx -y @acme/x\n["npx", 1]\n[]\n["npx", ""]\n{"a": 1}\n["ok"]');
    expect(parsed.entries).toEqual([['ok']]);
    expect(parsed.lines).toEqual([6]);
    expect(parsed.errors).toEqual([
      'Line 1: write it as a JSON array of strings, for example ["npx", "-y", "@acme/server"].',
      'Line 2: must be a JSON array of strings, for example ["npx", "-y", "@acme/server"].',
      'Line 3: must name at least the command.',
      'Line 4: has an empty string.',
      'Line 5: must be a JSON array of strings, for example ["npx", "-y", "@acme/server"].',
    ]);
  });

  it('refuses more than the API’s limits', () => {
    expect(parseArgvLines(JSON.stringify(Array.from({ length: 65 }, () => 'a'))).errors).toEqual([
      'Line 1: has more than 64 strings.',
    ]);
    expect(parseArgvLines(JSON.stringify(['a'.repeat(4097)])).errors).toEqual([
      'Line 1: has a string longer than 4096 characters.',
    ]);
    expect(parseArgvLines(Array.from({ length: 101 }, () => '["a"]').join('\n')).errors).toEqual([
      'At most 100 lines (there are 101).',
    ]);
  });

  it('writes back what it reads', () => {
    const argvs = [
      ['npx', '-y', '@acme/deploy-mcp'],
      ['sh', '-c', 'echo "a, b"'],
    ];
    expect(formatArgv(argvs[0] ?? [])).toBe('["npx", "-y", "@acme/deploy-mcp"]');
    expect(parseArgvLines(formatArgvLines(argvs)).entries).toEqual(argvs);
  });
});

describe('parseCidrLines and parseOriginLines', () => {
  it('reads one value per line and names the lines that are not one', () => {
    const cidrs = parseCidrLines('10.20.0.0/16\n\nfd00::/8\n10.0.0.1\nexample.com/8');
    expect(cidrs.entries).toEqual(['10.20.0.0/16', 'fd00::/8']);
    expect(cidrs.lines).toEqual([1, 3]);
    expect(cidrs.errors).toEqual([
      'Line 4: must be a CIDR such as 10.20.0.0/16.',
      'Line 5: must be a CIDR such as 10.20.0.0/16.',
    ]);
    const origins = parseOriginLines(
      'https://otel.acme.test\nhttps://otel.acme.test/v1/traces\nhttp://collector:4318',
    );
    expect(origins.entries).toEqual(['https://otel.acme.test', 'http://collector:4318']);
    expect(origins.errors).toEqual([
      'Line 2: must be an origin: scheme://host[:port], without path, query or fragment.',
    ]);
  });
});

describe('hostPolicyFieldErrors', () => {
  it('names the line of an entry outside the operator ceiling, from the errors the API names', () => {
    const refused = problem({
      code: 'outside_operator_ceiling',
      detail: 'stdioCommands.1 is outside the ceiling of every worker pool open to this tenant.',
      errors: [
        { path: 'stdioCommands.1', message: 'is outside the ceiling of every worker pool open to this tenant.' },
      ],
    });
    expect(hostPolicyFieldErrors(refused, { stdioCommands: [1, 4] })).toEqual([
      {
        path: 'stdioCommands',
        message: 'Line 4 is outside the ceiling of every worker pool open to this tenant.',
      },
    ]);
  });

  it('names the line of a metadata range', () => {
    const refused = problem({
      code: 'outside_operator_ceiling',
      detail: 'privateCidrs.0 contains a cloud metadata address, which is never allowed.',
      errors: [{ path: 'privateCidrs.0', message: 'contains a cloud metadata address, which is never allowed.' }],
    });
    expect(hostPolicyFieldErrors(refused, { privateCidrs: [2] })).toEqual([
      { path: 'privateCidrs', message: 'Line 2 contains a cloud metadata address, which is never allowed.' },
    ]);
  });

  it('maps validation paths to lines, and keeps fields without an index as they are', () => {
    const refused = problem({
      errors: [
        { path: 'traceContextOrigins.1', message: 'an origin: scheme://host[:port]' },
        { path: 'headerHelpers.0.2', message: 'Too small' },
        { path: 'fourEyes', message: 'Expected boolean' },
        { path: 'privateCidrs', message: 'Too big' },
      ],
    });
    expect(hostPolicyFieldErrors(refused, { traceContextOrigins: [1, 5] })).toEqual([
      { path: 'traceContextOrigins', message: 'Line 5: an origin: scheme://host[:port]' },
      { path: 'headerHelpers', message: 'Line 1: Too small' },
      { path: 'fourEyes', message: 'Expected boolean' },
      { path: 'privateCidrs', message: 'Too big' },
    ]);
  });

  it('gives nothing for a problem that names no field', () => {
    expect(hostPolicyFieldErrors(problem({ code: 'forbidden_scope', detail: 'Not allowed' }), {})).toEqual(
      [],
    );
  });
});

describe('poolsAllowingCommand', () => {
  const pools = [
    { pool: 'eu', stdio: true, headerHelpers: false, commandCeiling: [['npx', '-y']] },
    { pool: 'us', stdio: true, headerHelpers: true, commandCeiling: [['npx'], ['/usr/bin/vault-helper']] },
    { pool: 'locked', stdio: false, headerHelpers: false, commandCeiling: [['npx']] },
  ];

  it('lists the pools that allow the kind and whose ceiling prefix starts the command, exactly', () => {
    expect(poolsAllowingCommand(['npx', '-y', '@acme/x'], 'stdio', pools)).toEqual(['eu', 'us']);
    expect(poolsAllowingCommand(['npx', '--yes', '@acme/x'], 'stdio', pools)).toEqual(['us']);
    expect(poolsAllowingCommand(['npx'], 'stdio', pools)).toEqual(['us']);
    expect(poolsAllowingCommand(['npx-evil'], 'stdio', pools)).toEqual([]);
    expect(poolsAllowingCommand(['/usr/bin/vault-helper', 'get'], 'headerHelpers', pools)).toEqual(['us']);
    expect(poolsAllowingCommand(['npx', '-y'], 'headerHelpers', pools)).toEqual(['us']);
  });
});
