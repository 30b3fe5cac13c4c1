import { decodeServerEntry } from './definition-decoder';
import { securityIdentityOf, type SecurityIdentityResult } from './security-identity';
import type { SourceRef } from './tier';
import { materializeDefinition, type VariableValues } from './variable-materializer';

const project: SourceRef = { tier: 'project', origin: 'project:ws' };

function identity(
  raw: unknown,
  variables: VariableValues = {},
  source: SourceRef = project,
): SecurityIdentityResult {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') throw new Error('expected valid');
  return securityIdentityOf(materializeDefinition(decoded.definition, variables).definition, source);
}

function keyOf(raw: unknown, variables: VariableValues = {}, source: SourceRef = project): string {
  const result = identity(raw, variables, source);
  if (!result.ok) throw new Error(result.reason);
  return result.identity.key;
}

describe('securityIdentityOf', () => {
  const stdio = {
    command: 'npx',
    args: ['-y', 'pkg', '--token=${API_TOKEN}'],
    env: { MODE: 'a' },
    cwd: '/srv',
  };

  it('differs across sources for the same definition', () => {
    const keys = new Set(
      (
        [
          { tier: 'managed', origin: 'managed:org' },
          { tier: 'project', origin: 'project:ws' },
          { tier: 'project', origin: 'project:other' },
          { tier: 'user', origin: 'user:u1' },
          { tier: 'plugin', origin: 'plugin:p' },
        ] as SourceRef[]
      ).map((source) => keyOf(stdio, { tenant: { API_TOKEN: 's' } }, source)),
    );
    expect(keys.size).toBe(5);
  });

  it('stdio: command, args and cwd with secret markers; env is not part of it', () => {
    const base = keyOf(stdio, { tenant: { API_TOKEN: 'one' } });
    expect(base).toMatch(/^sid:v1:[0-9a-f]{64}$/);
    expect(keyOf(stdio, { tenant: { API_TOKEN: 'two' } })).toBe(base);
    expect(keyOf({ ...stdio, env: { MODE: 'b' } }, { tenant: { API_TOKEN: 'one' } })).toBe(base);
    expect(
      keyOf({ ...stdio, args: ['-y', 'pkg2', '--token=${API_TOKEN}'] }, { tenant: { API_TOKEN: 'one' } }),
    ).not.toBe(base);
    expect(keyOf({ ...stdio, cwd: '/srv2' }, { tenant: { API_TOKEN: 'one' } })).not.toBe(base);
    const { cwd: _cwd, ...noCwd } = stdio;
    expect(keyOf(noCwd, { tenant: { API_TOKEN: 'one' } })).not.toBe(base);
  });

  it('http: the canonical URL (scheme, host, port, path); query, userinfo and headers are not part of it', () => {
    const base = keyOf({ type: 'http', url: 'https://MCP.example.com/mcp' });
    expect(keyOf({ type: 'http', url: 'https://mcp.example.com:443/mcp?x=1#f' })).toBe(base);
    expect(keyOf({ type: 'http', url: 'https://user:pw@mcp.example.com/mcp' })).toBe(base);
    expect(keyOf({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-A': '1' } })).toBe(base);
    expect(keyOf({ type: 'http', url: 'http://mcp.example.com/mcp' })).not.toBe(base);
    expect(keyOf({ type: 'http', url: 'https://mcp.example.com:8443/mcp' })).not.toBe(base);
    expect(keyOf({ type: 'http', url: 'https://mcp2.example.com/mcp' })).not.toBe(base);
    expect(keyOf({ type: 'http', url: 'https://mcp.example.com/mcp/' })).not.toBe(base);
  });

  it('http: a secret in the path is a marker; in the host it is refused', () => {
    const raw = { type: 'http', url: 'https://hooks.example.com/${HOOK_TOKEN}/sse' };
    expect(keyOf(raw, { tenant: { HOOK_TOKEN: 'a1' } })).toBe(
      keyOf(raw, { tenant: { HOOK_TOKEN: 'b2-longer' } }),
    );
    expect(
      identity(
        { type: 'http', url: 'https://${TENANT_TOKEN}.example.com/mcp' },
        { tenant: { TENANT_TOKEN: 'x' } },
      ),
    ).toEqual({
      ok: false,
      reason: 'secret_in_url_authority',
    });
  });

  it('displays the target masked, never a secret', () => {
    const result = identity(
      {
        command: 'node',
        args: ['srv.js', '--api-key', '${NOTES_API_KEY}', 'ghp_0123456789abcdefABCDEF0123456789abcd'],
      },
      { tenant: { NOTES_API_KEY: 'CANARY-secret-value' } },
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.identity.display).toBe('node srv.js --api-key ${NOTES_API_KEY} [REDACTED]');
    const http = identity(
      { type: 'http', url: 'https://hooks.example.com/${HOOK_TOKEN}/sse' },
      { tenant: { HOOK_TOKEN: 'CANARY' } },
    );
    if (!http.ok) throw new Error(http.reason);
    expect(http.identity.display).toBe('https://hooks.example.com:443/${HOOK_TOKEN}/sse');
  });
});
