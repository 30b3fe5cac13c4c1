import { maskArgs, maskText, maskUrl, REDACTED } from './literal-masker';

describe('maskText', () => {
  it.each([
    ['plain text stays', '/home/agent/tools', '/home/agent/tools'],
    ['a known token prefix', 'use ghp_0123456789abcdefABCDEF0123456789abcd now', `use ${REDACTED} now`],
    ['a credential-named assignment', '--api-key=abc123', `--api-key=${REDACTED}`],
    ['an env-style assignment', 'GITHUB_TOKEN=abc/def:ghi', `GITHUB_TOKEN=${REDACTED}`],
    ['a non-credential assignment', '--access-mode=restricted', '--access-mode=restricted'],
    ['a header-style value', 'Authorization: Bearer abc def', `Authorization: ${REDACTED}`],
    ['a header-style value without space', 'Authorization:Bearer abc', `Authorization:${REDACTED}`],
    ['a bearer credential', 'Bearer abc.def', `Bearer ${REDACTED}`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', REDACTED],
    ['an empty assignment', 'token=', 'token='],
  ])('%s', (_name, input, expected) => {
    expect(maskText(input)).toBe(expected);
  });
});

describe('maskUrl', () => {
  it.each([
    [
      'keeps scheme, host, port and path',
      'https://mcp.example.com:8443/a/b',
      'https://mcp.example.com:8443/a/b',
    ],
    [
      'masks the whole userinfo',
      'https://x-access-token:abc@github.com/o/r',
      `https://${REDACTED}@github.com/o/r`,
    ],
    ['masks a token-only userinfo', 'https://ghp_abc@github.com/', `https://${REDACTED}@github.com/`],
    [
      'masks credential-named query parameters only',
      'https://x.example.com/mcp?api_key=abc&region=eu&access%5Ftoken=zzz',
      `https://x.example.com/mcp?api_key=${REDACTED}&region=eu&access%5Ftoken=${REDACTED}`,
    ],
    [
      'masks credential-named fragment parameters',
      'https://x.example.com/cb#access_token=abc&state=1',
      `https://x.example.com/cb#access_token=${REDACTED}&state=1`,
    ],
    [
      'masks a token-shaped path segment',
      'https://actions.example.com/mcp/sk-abcdef0123456789abcdef/sse',
      `https://actions.example.com/mcp/${REDACTED}/sse`,
    ],
  ])('%s', (_name, input, expected) => {
    expect(maskUrl(input)).toBe(expected);
  });
});

describe('maskArgs', () => {
  it('masks the value after a credential-named flag, and URLs as URLs', () => {
    expect(
      maskArgs(['--api-key', 'abc', '--verbose', '--token', '--next', 'https://u:p@h.example.com/x?token=t']),
    ).toEqual([
      '--api-key',
      REDACTED,
      '--verbose',
      '--token',
      '--next',
      `https://${REDACTED}@h.example.com/x?token=${REDACTED}`,
    ]);
  });
});

describe('masking runs in linear time', () => {
  // Generous sizes: a quadratic pass over a million characters would not finish within the test timeout.
  const N = 1_000_000;
  it.each([
    ['one long credential-char word', 'a'.repeat(N)],
    ['many assignments', 'a='.repeat(N / 2)],
    ['many credential assignments', 'token=x '.repeat(N / 8)],
    ['many colon keys', 'Authorization:'.repeat(N / 14)],
    ['many bearer words', 'Bearer '.repeat(N / 7)],
    ['alternating separators', 'a/'.repeat(N / 2)],
    ['dotted word', 'a.'.repeat(N / 2)],
  ])('maskText: %s', (_name, input) => {
    expect(maskText(input).length).toBeGreaterThan(0);
  });

  it.each([
    ['many query parameters', `https://x.example.com/?${'token=a&'.repeat(N / 8)}`],
    ['a long path', `https://x.example.com/${'seg/'.repeat(N / 4)}`],
    ['a long userinfo', `https://${'u'.repeat(N)}@x.example.com/`],
    ['many @ in the authority', `https://${'@'.repeat(N)}x`],
  ])('maskUrl: %s', (_name, input) => {
    expect(maskUrl(input).length).toBeGreaterThan(0);
  });

  it('maskArgs: many credential flags', () => {
    const args = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? '--token' : 'v'));
    expect(maskArgs(args)).toHaveLength(200_000);
  });
});
