import { canonicalResourceUri } from './canonical-resource';
import { isAcceptableEndpoint } from './endpoint-security.policy';
import { challengeScope, resourceMetadataLink } from './www-authenticate';

describe('resourceMetadataLink', () => {
  it('reads the parameter of a Bearer challenge, quoted or not, among others', () => {
    expect(resourceMetadataLink('Bearer resource_metadata="https://a.example/prm"')).toBe(
      'https://a.example/prm',
    );
    expect(
      resourceMetadataLink('Basic realm="x", Bearer error="invalid_token", resource_metadata="https://a/p"'),
    ).toBe('https://a/p');
    expect(resourceMetadataLink('Bearer resource_metadata=abc')).toBe('abc');
  });

  it('ignores it on other schemes and yields null for nothing or garbage', () => {
    expect(resourceMetadataLink('Basic resource_metadata="https://a/p"')).toBeNull();
    expect(resourceMetadataLink(null)).toBeNull();
    expect(resourceMetadataLink('Bearer resource_metadata="unterminated')).toBeNull();
    expect(resourceMetadataLink('Bearer realm="mcp"')).toBeNull();
  });
});

describe('canonicalResourceUri and isAcceptableEndpoint', () => {
  it('lowercases scheme and host, drops a default port and a bare slash, keeps the path', () => {
    expect(canonicalResourceUri('HTTPS://MCP.Example.com:443/mcp')).toBe('https://mcp.example.com/mcp');
    expect(canonicalResourceUri('https://mcp.example.com/')).toBe('https://mcp.example.com');
    expect(canonicalResourceUri('https://mcp.example.com/mcp/')).toBe('https://mcp.example.com/mcp/');
    expect(canonicalResourceUri('https://user:pw@mcp.example.com/')).toBeNull();
    expect(canonicalResourceUri('ftp://mcp.example.com/')).toBeNull();
  });

  it('accepts https, and plain http only to loopback when the operator allows it', () => {
    expect(isAcceptableEndpoint('https://a.example/token', { allowInsecureLoopback: false })).toBe(true);
    expect(isAcceptableEndpoint('http://127.0.0.1:9/token', { allowInsecureLoopback: false })).toBe(false);
    expect(isAcceptableEndpoint('http://127.0.0.1:9/token', { allowInsecureLoopback: true })).toBe(true);
    expect(isAcceptableEndpoint('http://[::1]:9/token', { allowInsecureLoopback: true })).toBe(true);
    expect(isAcceptableEndpoint('http://a.example/token', { allowInsecureLoopback: true })).toBe(false);
    expect(isAcceptableEndpoint('https://a.example/token#x', { allowInsecureLoopback: false })).toBe(false);
  });
});

describe('challengeScope', () => {
  it('reads the scope a Bearer challenge asks for, and nothing from another scheme or an empty one', () => {
    expect(challengeScope('Bearer error="insufficient_scope", scope="mcp:basic mcp:write"')).toBe(
      'mcp:basic mcp:write',
    );
    expect(challengeScope('Basic scope="a"')).toBeNull();
    expect(challengeScope('Bearer scope=""')).toBeNull();
    expect(challengeScope('Bearer realm="mcp"')).toBeNull();
  });
});
