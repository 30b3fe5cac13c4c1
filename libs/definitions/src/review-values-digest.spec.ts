import { decodeServerEntry } from './definition-decoder';
import type { FingerprintKey } from './definition-fingerprint';
import { diffReviewDigests, reviewDigestsOf, type ReviewDigests } from './review-values-digest';
import { materializeDefinition, type VariableValues } from './variable-materializer';

const KEY: FingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(3) };

function digests(raw: unknown, variables: VariableValues = {}, key: FingerprintKey = KEY): ReviewDigests {
  const decoded = decodeServerEntry('srv', raw, { tier: 'project', origin: 'project:ws' });
  if (decoded.kind !== 'valid') throw new Error(`expected valid entry: ${JSON.stringify(decoded)}`);
  const m = materializeDefinition(decoded.definition, variables);
  return reviewDigestsOf(m.definition, key);
}

const stdio = (env: Record<string, string>) => ({ command: 'node', args: ['server.js'], env });
const http = (headers: Record<string, string>) => ({
  type: 'http',
  url: 'https://mcp.example.com/',
  headers,
});

describe('review digests', () => {
  it('names every env key whose value changed, was added or removed, and never a value', () => {
    const before = digests(stdio({ NODE_OPTIONS: '--max-old-space-size=512', LOG_LEVEL: 'info', OLD: '1' }));
    const after = digests(stdio({ NODE_OPTIONS: '--require ./evil.js', LOG_LEVEL: 'info', NEW: '2' }));
    expect(diffReviewDigests(before, after)).toEqual([
      { kind: 'added', section: 'env', key: 'NEW' },
      { kind: 'changed', section: 'env', key: 'NODE_OPTIONS' },
      { kind: 'removed', section: 'env', key: 'OLD' },
    ]);
    const stored = JSON.stringify(after);
    expect(stored).not.toContain('evil');
    expect(stored).not.toContain('--require');
  });

  it('names a credential-looking env or header key as itself, never a value', () => {
    const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const before = digests(stdio({ LOG_LEVEL: 'info' }));
    const after = digests(
      stdio({ LOG_LEVEL: 'info', npm_config_node_options: '--import=CANARY', [tokenKey]: 'CANARY-2' }),
    );
    expect(diffReviewDigests(before, after)).toEqual([
      { kind: 'added', section: 'env', key: tokenKey },
      { kind: 'added', section: 'env', key: 'npm_config_node_options' },
    ]);
    expect(diffReviewDigests(after, before)).toEqual([
      { kind: 'removed', section: 'env', key: tokenKey },
      { kind: 'removed', section: 'env', key: 'npm_config_node_options' },
    ]);
    const headers = diffReviewDigests(digests(http({})), digests(http({ [tokenKey]: 'CANARY-3' })));
    expect(headers).toEqual([{ kind: 'added', section: 'headers', key: tokenKey }]);
    expect(JSON.stringify(after)).not.toMatch(/CANARY|--import/);
  });

  it('names header keys (case-insensitively the same key) and is empty when nothing changed', () => {
    const before = digests(http({ 'X-Team': 'a', 'X-Region': 'eu' }));
    expect(diffReviewDigests(before, digests(http({ 'x-region': 'eu', 'X-Team': 'a' })))).toEqual([]);
    expect(diffReviewDigests(before, digests(http({ 'X-Team': 'b', 'X-Region': 'eu' })))).toEqual([
      { kind: 'changed', section: 'headers', key: 'X-Team' },
    ]);
  });

  it('treats a secret as the fingerprint does: rotation is no change, a new destination is', () => {
    const at = (url: string) => digests(stdio({ DATABASE_URL: url }));
    const original = at('postgres://u:p@db.internal/app');
    expect(diffReviewDigests(original, at('postgres://u:rotated@db.internal/app'))).toEqual([]);
    expect(diffReviewDigests(original, at('postgres://u:p@evil.example/app'))).toEqual([
      { kind: 'changed', section: 'env', key: 'DATABASE_URL' },
    ]);
    const token = (value: string) => digests(stdio({ API_TOKEN: value }));
    expect(diffReviewDigests(token('one'), token('two'))).toEqual([]);
  });

  it('a non-secret variable a value reads counts like its text', () => {
    const raw = stdio({ MODE: '${MODE}' });
    expect(
      diffReviewDigests(digests(raw, { tenant: { MODE: 'a' } }), digests(raw, { tenant: { MODE: 'b' } })),
    ).toEqual([{ kind: 'changed', section: 'env', key: 'MODE' }]);
  });

  it('is keyed: the digests of one tenant say nothing under another tenant key', () => {
    const raw = stdio({ NODE_OPTIONS: '--inspect' });
    const mine = digests(raw);
    const theirs = digests(raw, {}, { id: 'k1', bytes: new Uint8Array(32).fill(4) });
    expect(mine.env[0]?.value).not.toBe(theirs.env[0]?.value);
    expect(mine.env[0]?.value).toMatch(/^[0-9a-f]{64}$/);
  });

  it('digests made under another key id are not compared (null), rather than reading as every key replaced', () => {
    const raw = stdio({ NODE_OPTIONS: '--inspect' });
    expect(diffReviewDigests(digests(raw), digests(raw, {}, { id: 'k2', bytes: KEY.bytes }))).toBeNull();
  });

  it('moving from stdio to http removes every env key and adds every header', () => {
    expect(diffReviewDigests(digests(stdio({ A: '1' })), digests(http({ B: '2' })))).toEqual([
      { kind: 'removed', section: 'env', key: 'A' },
      { kind: 'added', section: 'headers', key: 'B' },
    ]);
  });
});
