import { decodeServerEntry } from './definition-decoder';
import type { SourceRef } from './tier';
import { materializeDefinition, type VariableValues } from './variable-materializer';

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

function materialize(raw: unknown, variables: VariableValues) {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') throw new Error(`expected valid, got ${decoded.kind}`);
  return materializeDefinition(decoded.definition, variables);
}

describe('materializeDefinition', () => {
  it('reads user over workspace over tenant and records each stretch', () => {
    const m = materialize(
      { command: 'run', args: ['--region=${REGION}', '${MODE}-${LEVEL}'] },
      {
        tenant: { REGION: 'tenant-r', MODE: 'tenant-m', LEVEL: 'tenant-l' },
        workspace: { MODE: 'ws-m', LEVEL: 'ws-l' },
        user: { LEVEL: 'user-l' },
      },
    );
    if (m.definition.transport.kind !== 'stdio') throw new Error('stdio expected');
    const [region, combined] = m.definition.transport.args;
    expect(region).toEqual({
      value: '--region=tenant-r',
      stretches: [{ start: 9, end: 17, variable: 'REGION', from: 'tenant', secret: false }],
    });
    expect(combined).toEqual({
      value: 'ws-m-user-l',
      stretches: [
        { start: 0, end: 4, variable: 'MODE', from: 'workspace', secret: false },
        { start: 5, end: 11, variable: 'LEVEL', from: 'user', secret: false },
      ],
    });
    expect(m.uses).toEqual([
      { variable: 'REGION', from: 'tenant' },
      { variable: 'MODE', from: 'workspace' },
      { variable: 'LEVEL', from: 'user' },
    ]);
    expect(m.unset).toEqual([]);
  });

  it('uses the default when no scope sets the variable, and a set empty value when one does', () => {
    const m = materialize(
      { command: 'run', args: ['${A:-fallback}', '${B:-fallback}'] },
      { tenant: { B: '' } },
    );
    if (m.definition.transport.kind !== 'stdio') throw new Error('stdio expected');
    expect(m.definition.transport.args.map((a) => a.value)).toEqual(['fallback', '']);
    expect(m.definition.transport.args[0]?.stretches[0]?.from).toBe('default');
  });

  it('marks stretches of credential-shaped variables secret, defaults included', () => {
    const m = materialize({ command: 'run', args: ['Bearer ${API_TOKEN:-dev-token}'] }, {});
    if (m.definition.transport.kind !== 'stdio') throw new Error('stdio expected');
    expect(m.definition.transport.args[0]).toEqual({
      value: 'Bearer dev-token',
      stretches: [{ start: 7, end: 16, variable: 'API_TOKEN', from: 'default', secret: true }],
    });
  });

  it('marks values under credential-shaped keys secret as a whole', () => {
    const m = materialize({ command: 'run', env: { API_KEY: 'literal', LOG_LEVEL: 'debug' } }, {});
    if (m.definition.transport.kind !== 'stdio') throw new Error('stdio expected');
    expect(m.definition.transport.env.map((e) => [e.key, e.secretKey])).toEqual([
      ['API_KEY', true],
      ['LOG_LEVEL', false],
    ]);
  });

  it('reports each unset variable without default with its exact field, never as an empty string', () => {
    const stdio = materialize(
      {
        command: '${BIN}',
        args: ['ok', '--x=${MISSING_ARG}'],
        env: { TOKEN: '${GH_TOKEN}' },
        cwd: '${ROOT}/x',
      },
      {},
    );
    expect(stdio.unset).toEqual([
      { path: ['command'], variable: 'BIN' },
      { path: ['args', 1], variable: 'MISSING_ARG' },
      { path: ['env', 'TOKEN'], variable: 'GH_TOKEN' },
      { path: ['cwd'], variable: 'ROOT' },
    ]);
    if (stdio.definition.transport.kind !== 'stdio') throw new Error('stdio expected');
    expect(stdio.definition.transport.args[1]?.stretches).toEqual([
      { start: 4, end: 4, variable: 'MISSING_ARG', from: 'unset', secret: false },
    ]);
    expect(stdio.problems).toEqual([]);

    const http = materialize(
      { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${T}' } },
      {},
    );
    expect(http.unset).toEqual([
      { path: ['url'], variable: 'HOST' },
      { path: ['headers', 'Authorization'], variable: 'T' },
    ]);
  });

  it('names a credential-looking env or header key in an unset path as itself', () => {
    const key = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const stdio = materialize(
      { command: 'run', env: { npm_config_node_options: '${OPTS}', [key]: '${T}' } },
      {},
    );
    expect(stdio.unset).toEqual([
      { path: ['env', 'npm_config_node_options'], variable: 'OPTS' },
      { path: ['env', key], variable: 'T' },
    ]);
    const http = materialize({ type: 'http', url: 'https://x.example.com', headers: { [key]: '${T}' } }, {});
    expect(http.unset).toEqual([{ path: ['headers', key], variable: 'T' }]);
  });

  it('never reads prototype members as variables', () => {
    const m = materialize(
      { command: 'run', args: ['${constructor}', '${toString}', '${__proto__}'] },
      { tenant: {} },
    );
    expect(m.unset.map((u) => u.variable)).toEqual(['constructor', 'toString', '__proto__']);
  });

  it('refuses a header value a variable broke with a line break', () => {
    const m = materialize(
      { type: 'http', url: 'https://x.example.com', headers: { 'X-Team': '${TEAM}' } },
      { tenant: { TEAM: 'a\r\nX-Injected: 1' } },
    );
    expect(m.problems).toEqual([{ reason: 'invalid_header_value', path: ['headers', 'X-Team'] }]);
  });

  it('refuses a command that materialized empty', () => {
    const m = materialize({ command: '${BIN}' }, { tenant: { BIN: '' } });
    expect(m.problems).toEqual([{ reason: 'empty_command', path: ['command'] }]);
  });
});
