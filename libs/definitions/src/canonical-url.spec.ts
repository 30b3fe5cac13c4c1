import { canonicalDefinitionUrl, canonicalizeHttpUrl, formatCanonicalUrl } from './canonical-url';
import type { MaterializedText } from './variable-materializer';

function text(value: string, secrets: [string, number, number][] = []): MaterializedText {
  return {
    value,
    stretches: secrets.map(([variable, start, end]) => ({
      start,
      end,
      variable,
      from: 'tenant',
      secret: true,
    })),
  };
}

describe('canonicalizeHttpUrl', () => {
  it.each([
    ['HTTPS://MCP.Example.COM/mcp', 'https://mcp.example.com:443/mcp'],
    ['https://mcp.example.com', 'https://mcp.example.com:443/'],
    ['http://localhost:8080/a/../b/./c', 'http://localhost:8080/b/c'],
    ['https://user:pw@mcp.example.com:8443/mcp?x=1#f', 'https://mcp.example.com:8443/mcp'],
    ['https://bücher.example/mcp', 'https://xn--bcher-kva.example:443/mcp'],
    ['https://[::1]:9000/mcp', 'https://[::1]:9000/mcp'],
    ['https://mcp.example.com/mcp/', 'https://mcp.example.com:443/mcp/'],
  ])('%s -> %s', (input, expected) => {
    const result = canonicalizeHttpUrl(input);
    if (!result.ok) throw new Error(result.reason);
    expect(formatCanonicalUrl(result.canonical)).toBe(expected);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(canonicalizeHttpUrl('not a url')).toEqual({ ok: false, reason: 'invalid_url' });
    expect(canonicalizeHttpUrl('ftp://x.example.com/')).toEqual({ ok: false, reason: 'url_not_http' });
    expect(canonicalizeHttpUrl('file:///etc/passwd')).toEqual({ ok: false, reason: 'url_not_http' });
  });
});

describe('canonicalDefinitionUrl', () => {
  it('replaces secret stretches in the path with markers, stable under rotation', () => {
    const a = canonicalDefinitionUrl(
      text('https://hooks.example.com/mcp/SECRET1/sse', [['HOOK_TOKEN', 30, 37]]),
    );
    const b = canonicalDefinitionUrl(
      text('https://hooks.example.com/mcp/other-secret-value/sse', [['HOOK_TOKEN', 30, 48]]),
    );
    expect(a).toEqual({
      ok: true,
      canonical: {
        scheme: 'https',
        host: 'hooks.example.com',
        port: 443,
        path: '/mcp/<secret:HOOK_TOKEN>/sse',
      },
    });
    expect(b).toEqual(a);
  });

  it('ignores secrets in the query and the userinfo', () => {
    const result = canonicalDefinitionUrl(
      text('https://u:pw@x.example.com/mcp?key=abc', [
        ['PASSWORD', 10, 12],
        ['API_KEY', 35, 38],
      ]),
    );
    expect(result).toEqual({
      ok: true,
      canonical: { scheme: 'https', host: 'x.example.com', port: 443, path: '/mcp' },
    });
  });

  it('refuses a secret in the host or the port', () => {
    expect(
      canonicalDefinitionUrl(text('https://tenant-abc.example.com/mcp', [['TENANT_TOKEN', 8, 18]])),
    ).toEqual({
      ok: false,
      reason: 'secret_in_url_authority',
    });
    expect(canonicalDefinitionUrl(text('https://x.example.com:8443/mcp', [['PORT_SECRET', 22, 26]]))).toEqual(
      {
        ok: false,
        reason: 'secret_in_url_authority',
      },
    );
  });

  it('refuses a secret value that moves the real authority', () => {
    // `https://user:${PASSWORD}@good.example.com/` with PASSWORD = `x@evil.example.net/`
    const value = 'https://user:x@evil.example.net/@good.example.com/';
    expect(canonicalDefinitionUrl(text(value, [['PASSWORD', 13, 32]]))).toEqual({
      ok: false,
      reason: 'secret_in_url_authority',
    });
  });

  it('keeps markers apart from literal text spelled like them', () => {
    const literal = canonicalDefinitionUrl(text('https://x.example.com/%3Csecret:T%3E'));
    const secret = canonicalDefinitionUrl(text('https://x.example.com/abc', [['T', 22, 25]]));
    expect(literal.ok && secret.ok && literal.canonical.path !== secret.canonical.path).toBe(true);
    const sentinelLiteral = canonicalDefinitionUrl(
      text('https://x.example.com/ghsecret0z/abc', [['API_TOKEN', 33, 36]]),
    );
    expect(sentinelLiteral).toEqual({
      ok: true,
      canonical: {
        scheme: 'https',
        host: 'x.example.com',
        port: 443,
        path: '/ghsecret0z/<secret:API_TOKEN>',
      },
    });
  });
});
