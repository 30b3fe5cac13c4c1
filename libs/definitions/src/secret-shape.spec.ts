import { isCredentialShapedLiteral, isCredentialShapedName, looksLikeGatehouseToken } from './secret-shape';

describe('isCredentialShapedName', () => {
  it.each([
    'GITHUB_TOKEN',
    'GITHUB_PERSONAL_ACCESS_TOKEN',
    'GITHUB_PAT',
    'API_KEY',
    'apiKey',
    'APIKey',
    'x-api-key',
    'X-API-Key',
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'OPENAI_API_KEY',
    'SENTRY_AUTH_TOKEN',
    'DB_PASSWORD',
    'PG_PASSWORD',
    'DB_PWD',
    'client_secret',
    'AWS_SECRET_ACCESS_KEY',
    'SSH_PRIVATE_KEY',
    'DATABASE_URL',
    'REDIS_URL',
    'SENTRY_DSN',
    'ACCESSTOKEN',
    'Private-Token',
    'Ocp-Apim-Subscription-Key',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ])('%s is credential-shaped', (name) => {
    expect(isCredentialShapedName(name)).toBe(true);
  });

  it.each([
    'HOME',
    'PWD',
    'PATH',
    'NODE_OPTIONS',
    'GITHUB_TOOLSETS',
    'WORKSPACE_ROOT',
    'LOG_LEVEL',
    'KEYBOARD_LAYOUT',
    'MONKEY',
    'X-Team',
    'Content-Type',
    'DOCS_MCP_URL',
    'OAUTH_CLIENT_ID',
    '',
  ])('%s is not credential-shaped', (name) => {
    expect(isCredentialShapedName(name)).toBe(false);
  });
});

describe('isCredentialShapedLiteral (display only)', () => {
  it.each([
    'ghp_1234567890abcdefABCDEF1234567890abcd',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'sk_live_51H8abcdefghijklmn',
    'xoxb-1234567890-abcdefghij',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyD-abcdefghijklmnopqrstuvwxyz012345',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
    'a3f5c9e1b2d4f6a8c0e2b4d6f8a0c2e4',
    'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg',
  ])('%s looks like a credential', (word) => {
    expect(isCredentialShapedLiteral(word)).toBe(true);
  });

  it.each([
    'npx',
    '@modelcontextprotocol/server-filesystem',
    'server-filesystem',
    '--access-mode=restricted',
    'my-very-long-subdomain-name-number-01.example.com',
    'ghcr.io',
    'sk-short',
    'repos,issues,pull_requests',
    'abcdefghijklmnopqrstuvwxyzabcdefgh',
  ])('%s does not', (word) => {
    expect(isCredentialShapedLiteral(word)).toBe(false);
  });
});

describe('looksLikeGatehouseToken', () => {
  it.each([
    'ghu_AAAAAAAAAAAAAAAAAAAAAAAA',
    'gha_0123456789abcdefXYZ',
    'ghw_aaaaaaaaaaaaaaaa',
    'ghg_ABCDEFGHIJKLMNOP',
    'prefix-ghu_AAAAAAAAAAAAAAAAAAAA-suffix',
  ])('%s holds a token', (text) => {
    expect(looksLikeGatehouseToken(text)).toBe(true);
  });

  it.each(['ghu_AAAAAAAAAAAAAAA', 'ghp_AAAAAAAAAAAAAAAAAAAAAAAA', 'ghu-AAAAAAAAAAAAAAAAAAAA', 'github', ''])(
    '%s does not',
    (text) => {
      expect(looksLikeGatehouseToken(text)).toBe(false);
    },
  );
});
