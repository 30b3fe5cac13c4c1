import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { decodeServerEntry } from './definition-decoder';
import { fingerprintDefinition, type FingerprintKey } from './definition-fingerprint';
import { secretOriginOf } from './secret-origin';
import type { SourceRef } from './tier';
import {
  materializeDefinition,
  type MaterializedDefinition,
  type VariableValues,
} from './variable-materializer';

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

/** A tenant's fingerprint key as the API derives it (here: fixed bytes). */
const KEY: FingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(7) };
const OTHER_TENANT: FingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(8) };

function materialized(raw: unknown, variables: VariableValues = {}): MaterializedDefinition {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') throw new Error(`expected valid entry: ${JSON.stringify(decoded)}`);
  const m = materializeDefinition(decoded.definition, variables);
  if (m.unset.length > 0) throw new Error('unset variable in test entry');
  return m.definition;
}

function fingerprint(raw: unknown, variables: VariableValues = {}, key: FingerprintKey = KEY): string {
  return fingerprintDefinition(materialized(raw, variables), key);
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('fingerprintDefinition', () => {
  const base = {
    command: 'npx',
    args: ['-y', 'pkg', '--token', '${API_TOKEN}'],
    env: {
      GITHUB_TOKEN: 'ghp_literal_one_0123456789',
      NODE_OPTIONS: '--max-old-space-size=512',
      REGION: '${REGION}',
    },
    cwd: '/srv/app',
  };
  const vars = { tenant: { API_TOKEN: 'first-secret', REGION: 'eu' } };

  it('is a keyed hash, versioned in its prefix with the key it was made under, and deterministic', () => {
    expect(fingerprint(base, vars)).toMatch(/^v2:k1:[0-9a-f]{64}$/);
    expect(fingerprint(clone(base), vars)).toBe(fingerprint(base, vars));
    expect(fingerprint(base, vars, { id: 'k2', bytes: KEY.bytes })).toMatch(/^v2:k2:/);
  });

  it('cannot be recomputed without the tenant key: another key gives another hash', () => {
    expect(fingerprint(base, vars, OTHER_TENANT)).not.toBe(fingerprint(base, vars));
    // A masked low-entropy literal (`--api-key 1234`) cannot be confirmed by hashing guesses: no guess made
    // without the key (here: the unkeyed sha256 the v1 fingerprint was) reproduces it.
    const guessed = { command: 'x', args: ['--api-key', '1234'] };
    const hex = fingerprint(guessed).split(':')[2];
    const unkeyed = createHash('sha256').update('1234', 'utf16le').digest('hex');
    expect(hex).not.toBe(unkeyed);
    expect(fingerprint(guessed)).toBe(fingerprint(clone(guessed)));
  });

  it('refuses a key that is not one (too short, or an id that would break the prefix)', () => {
    const m = materialized(base, vars);
    expect(() => fingerprintDefinition(m, { id: 'k1', bytes: new Uint8Array(8) })).toThrow(TypeError);
    expect(() => fingerprintDefinition(m, { id: 'a:b', bytes: KEY.bytes })).toThrow(TypeError);
  });

  it('is stable when a credential rotates (variable, default or literal under a credential key)', () => {
    const rotated = clone(base);
    rotated.env.GITHUB_TOKEN = 'ghp_literal_two_9876543210';
    expect(fingerprint(rotated, { tenant: { API_TOKEN: 'second-secret', REGION: 'eu' } })).toBe(
      fingerprint(base, vars),
    );
    expect(fingerprint({ command: 'x', args: ['${API_TOKEN:-a}'] })).toBe(
      fingerprint({ command: 'x', args: ['${API_TOKEN:-b}'] }),
    );
    // Moving a secret to another scope is still a rotation of the same credential.
    expect(fingerprint(base, { user: { API_TOKEN: 'mine' }, tenant: { REGION: 'eu' } })).toBe(
      fingerprint(base, vars),
    );
  });

  it.each([
    ['NODE_OPTIONS', (e: typeof base) => void (e.env.NODE_OPTIONS = '--require=/tmp/evil.js')],
    ['an argument', (e: typeof base) => void (e.args[1] = 'other-pkg')],
    ['the command', (e: typeof base) => void (e.command = 'bunx')],
    ['the cwd', (e: typeof base) => void (e.cwd = '/srv')],
    ['an env key', (e: typeof base) => void ((e.env as Record<string, string>).EXTRA = '1')],
  ])('changes when %s changes', (_name, mutate) => {
    const changed = clone(base);
    mutate(changed);
    expect(fingerprint(changed, vars)).not.toBe(fingerprint(base, vars));
  });

  it('changes when a non-secret variable changes', () => {
    expect(fingerprint(base, { tenant: { API_TOKEN: 'first-secret', REGION: 'us' } })).not.toBe(
      fingerprint(base, vars),
    );
  });

  it('hashes literal tokens exactly (the shape guess never blinds it)', () => {
    expect(fingerprint({ command: 'x', args: ['ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'] })).not.toBe(
      fingerprint({ command: 'x', args: ['ghp_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'] }),
    );
  });

  it('keeps fields apart even when their text spells the encoding', () => {
    expect(fingerprint({ command: 'x', args: ['aS', 'b'] })).not.toBe(
      fingerprint({ command: 'x', args: ['a', 'Sb'] }),
    );
    expect(fingerprint({ command: 'x', args: ['a1:S', 'b'] })).not.toBe(
      fingerprint({ command: 'x', args: ['a', '1:Sb'] }),
    );
    // Text that spells a whole element separator: only a length prefix keeps these apart.
    expect(fingerprint({ command: 'x', args: ['a', 'X1:Sb'] })).not.toBe(
      fingerprint({ command: 'x', args: ['aX1:S', 'b'] }),
    );
  });

  it('does not depend on env or header order, or on header-name case', () => {
    expect(fingerprint({ command: 'x', env: { A: '1', B: '2' } })).toBe(
      fingerprint({ command: 'x', env: { B: '2', A: '1' } }),
    );
    expect(
      fingerprint({ type: 'http', url: 'https://x.example.com', headers: { 'X-A': '1', 'X-B': '2' } }),
    ).toBe(fingerprint({ type: 'http', url: 'https://x.example.com', headers: { 'x-b': '2', 'x-a': '1' } }));
  });

  it('keeps a secret marker apart from literal text that spells it', () => {
    expect(fingerprint({ command: 'x', args: ['${API_TOKEN}'] }, { tenant: { API_TOKEN: 's' } })).not.toBe(
      fingerprint({ command: 'x', args: ['M13:var:API_TOKEN'] }),
    );
  });

  it('covers every http field', () => {
    const http = {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer abc', 'X-Team': 'a' },
      headersHelper: ['/bin/helper'],
      oauth: { clientId: 'c', scopes: ['a'] },
      principalHeader: 'X-Principal',
    };
    const mutations: ((e: typeof http) => void)[] = [
      (e) => void (e.url = 'https://mcp.example.org/mcp'),
      (e) => void (e.url = 'https://mcp.example.com:8443/mcp'),
      (e) => void (e.url = 'https://mcp.example.com/mcp2'),
      (e) => void (e.url = 'https://mcp.example.com/mcp?x=1'),
      (e) => void (e.headers['X-Team'] = 'b'),
      (e) => void ((e.headers as Record<string, string>)['X-New'] = 'b'),
      (e) => void (e.headersHelper = ['/bin/helper', '--json']),
      (e) => void (e.oauth.clientId = 'd'),
      (e) => void (e.oauth.scopes = ['a', 'b']),
      (e) => void ((e.oauth as Record<string, unknown>).allowSharedCredential = true),
      (e) => void (e.principalHeader = 'X-User'),
    ];
    const original = fingerprint(http);
    const seen = new Set([original]);
    for (const mutate of mutations) {
      const changed = clone(http);
      mutate(changed);
      seen.add(fingerprint(changed));
    }
    expect(seen.size).toBe(mutations.length + 1);
    const rotated = clone(http);
    rotated.headers.Authorization = 'Bearer xyz';
    expect(fingerprint(rotated)).toBe(original);
  });
});

// ---- properties -------------------------------------------------------------------------------------------

const SECRET_VARS = ['API_TOKEN', 'DB_PASSWORD', 'GITHUB_PAT'] as const;
const PLAIN_VARS = ['MODE', 'REGION'] as const;

/** Literal text: lowercase and a little punctuation, never a reference. */
const literal = fc.stringMatching(/^[a-z./:=-]{0,6}$/);
const reference = fc.constantFrom(...SECRET_VARS, ...PLAIN_VARS).map((name) => `\${${name}}`);
const template = fc.array(fc.oneof(literal, reference), { maxLength: 4 }).map((parts) => parts.join(''));
const anyValue = fc.string({ maxLength: 24 });
const noOrigin = anyValue.filter((v) => secretOriginOf(v) === null);

interface Shape {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
  plainValues: Record<string, string>;
  options: { startupTimeoutMs: number | null; elicitation: boolean; allowTools: string[] | null };
}

const shape: fc.Arbitrary<Shape> = fc.record({
  command: template.map((t) => `cmd${t}`),
  args: fc.array(template, { maxLength: 5 }),
  env: fc.record(
    { LOG_LEVEL: template, NODE_OPTIONS: template, SESSION_TOKEN: template, API_KEY: template },
    { requiredKeys: [] },
  ),
  cwd: fc.option(
    // A `..` segment is refused at decode (decision 0024).
    template.map((t) => `/w${t}`).filter((cwd) => !cwd.split('/').includes('..')),
    { nil: null },
  ),
  plainValues: fc.record({ MODE: anyValue, REGION: anyValue }),
  options: fc.record({
    startupTimeoutMs: fc.option(fc.integer({ min: 1000, max: 100_000 }), { nil: null }),
    elicitation: fc.boolean(),
    allowTools: fc.option(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 3 }), { nil: null }),
  }),
});

/** Secret material: the values of credential-shaped variables and literals under credential-shaped keys. */
const secrets = fc.record({
  // Credentials that name no destination (one that does is covered by 'secrets that point somewhere').
  vars: fc.record({ API_TOKEN: noOrigin, DB_PASSWORD: noOrigin, GITHUB_PAT: noOrigin }),
  // A literal in a document cannot hold `${` (that starts a reference); a variable's value can hold anything.
  sessionLiteral: anyValue.filter((v) => !v.includes('${') && secretOriginOf(v) === null),
  apiKeyLiteral: anyValue.filter((v) => !v.includes('${') && secretOriginOf(v) === null),
});
type Secrets = { vars: Record<string, string>; sessionLiteral: string; apiKeyLiteral: string };

function build(s: Shape, secret: Secrets): { raw: Record<string, unknown>; variables: VariableValues } {
  const env: Record<string, string> = { ...s.env };
  // Under a credential-shaped key the whole value is secret, whatever it is: rotating it replaces the literal.
  if ('SESSION_TOKEN' in env) env.SESSION_TOKEN = secret.sessionLiteral;
  if ('API_KEY' in env) env.API_KEY = secret.apiKeyLiteral;
  const raw: Record<string, unknown> = { command: s.command, args: s.args, env };
  if (s.cwd !== null) raw.cwd = s.cwd;
  if (s.options.startupTimeoutMs !== null) raw.startupTimeoutMs = s.options.startupTimeoutMs;
  raw.elicitation = s.options.elicitation;
  if (s.options.allowTools !== null) raw.allowTools = s.options.allowTools;
  return { raw, variables: { tenant: { ...s.plainValues, ...secret.vars } } };
}

function fp(s: Shape, secret: Secrets): string {
  const { raw, variables } = build(s, secret);
  return fingerprint(raw, variables);
}

/** Run-deciding changes that are NOT secret rotations; each yields a definition that runs differently. */
const MUTATIONS: readonly [string, (s: Shape) => void][] = [
  ['command', (s) => void (s.command += 'x')],
  ['append arg', (s) => void s.args.push('x')],
  ['change arg', (s) => void (s.args.length > 0 ? (s.args[0] += 'x') : s.args.push(''))],
  ['drop arg', (s) => void (s.args.length > 0 ? s.args.pop() : s.args.push('y'))],
  ['LOG_LEVEL', (s) => void (s.env.LOG_LEVEL = `${s.env.LOG_LEVEL ?? ''}x`)],
  ['NODE_OPTIONS', (s) => void (s.env.NODE_OPTIONS = `${s.env.NODE_OPTIONS ?? ''}--inspect`)],
  ['new env key', (s) => void (s.env.EXTRA_SETTING = '1')],
  ['cwd', (s) => void (s.cwd = s.cwd === null ? '/w' : `${s.cwd}x`)],
  ['plain variable', (s) => void (s.plainValues.MODE += 'x')],
  ['startupTimeoutMs', (s) => void (s.options.startupTimeoutMs = (s.options.startupTimeoutMs ?? 999) + 1)],
  ['elicitation', (s) => void (s.options.elicitation = !s.options.elicitation)],
  ['allowTools', (s) => void (s.options.allowTools = s.options.allowTools === null ? [] : null)],
];

describe('fingerprint properties', () => {
  it('is stable under rotation of every secret', () => {
    fc.assert(
      fc.property(shape, secrets, secrets, (s, first, second) => {
        expect(fp(s, first)).toBe(fp(s, second));
      }),
    );
  });

  it('is sensitive to every other run-deciding field', () => {
    fc.assert(
      fc.property(shape, secrets, fc.constantFrom(...MUTATIONS), (s, secret, [name, mutate]) => {
        // The plain variable only matters where it is referenced: make sure it is.
        const original: Shape = { ...clone(s), command: `${s.command}\${MODE}` };
        const changed = clone(original);
        mutate(changed);
        expect({ name, same: fp(changed, secret) === fp(original, secret) }).toEqual({ name, same: false });
      }),
    );
  });

  it('changes when text shifts between adjacent fields', () => {
    // Text made of the encoding's own tag letters, digits and separators, so a weak encoding would collide.
    const unit = fc.constantFrom(
      'S',
      'M',
      'X',
      'K',
      'L',
      'N',
      'T',
      'F',
      'I',
      '1',
      '2',
      ':',
      ';',
      'a',
      'X1:S',
      'S1:',
      'K3:env',
    );
    const text = fc.string({ unit, maxLength: 8 });
    fc.assert(
      fc.property(text, fc.string({ unit, minLength: 1, maxLength: 8 }), text, (a, moved, c) => {
        // args [a+moved, c] vs [a, moved+c]
        expect(fingerprint({ command: 'x', args: [a + moved, c] })).not.toBe(
          fingerprint({ command: 'x', args: [a, moved + c] }),
        );
        // an env key vs its value
        expect(fingerprint({ command: 'x', env: { K_A: `${moved}${c}` } })).not.toBe(
          fingerprint({ command: 'x', env: { K_A_X: c } }),
        );
        // the command vs its first argument
        expect(fingerprint({ command: `x${moved}`, args: [c] })).not.toBe(
          fingerprint({ command: 'x', args: [moved + c] }),
        );
        // a header value vs the next header's value
        expect(
          fingerprint({
            type: 'http',
            url: 'https://x.example.com',
            headers: { 'X-A': `v${moved}`, 'X-B': c },
          }),
        ).not.toBe(
          fingerprint({
            type: 'http',
            url: 'https://x.example.com',
            headers: { 'X-A': 'v', 'X-B': moved + c },
          }),
        );
      }),
    );
  });
});

// ---- secrets that point somewhere (docs/security-identity.md) -------------------------------------------------

describe('a secret that is a URL or host:port', () => {
  const withDb = (url: string) => ({ command: 'srv', env: { DATABASE_URL: url, LOG_LEVEL: 'info' } });
  const original = fingerprint(withDb('postgres://u:p@db.internal/app'));

  it('keeps the fingerprint when only its credential parts rotate (userinfo, path, query, fragment)', () => {
    for (const rotated of [
      'postgres://u:other@db.internal/app',
      'postgres://someone:else@db.internal/app',
      'postgres://db.internal/app',
      'postgres://u:p@db.internal/other?password=new#x',
      '  postgres://u:p@DB.internal/app',
    ]) {
      expect({ rotated, same: fingerprint(withDb(rotated)) === original }).toEqual({ rotated, same: true });
    }
  });

  it('changes when it moves to another scheme, host or port', () => {
    for (const moved of [
      'postgres://u:p@evil.example/app',
      'postgres://u:p@db.internal:6543/app',
      'postgresql://u:p@db.internal/app',
      'postgres://u:p@ss@evil.example/app',
      'db.internal:5432',
      // The driver connects where the query or its prefix says (libpq `?host=`, a JDBC URL).
      'postgres://u:p@db.internal/app?host=evil.example',
      'postgres://u:p@db.internal/app?sslmode=require&port=6543',
      'jdbc:postgresql://u:p@db.internal/app',
    ]) {
      expect({ moved, same: fingerprint(withDb(moved)) === original }).toEqual({ moved, same: false });
    }
  });

  it('counts a host:port credential and a header credential that is a URL', () => {
    const redis = (value: string) => ({ command: 'srv', env: { REDIS_PASSWORD: value } });
    expect(fingerprint(redis('secret@cache.internal:6379'))).toBe(
      fingerprint(redis('rotated@cache.internal:6379')),
    );
    expect(fingerprint(redis('secret@cache.internal:6379'))).not.toBe(
      fingerprint(redis('secret@evil.example:6379')),
    );
    const http = (value: string) => ({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Upstream-Token': value },
    });
    expect(fingerprint(http('https://a:b@up.example.com/x'))).toBe(
      fingerprint(http('https://c:d@up.example.com/y')),
    );
    expect(fingerprint(http('https://a:b@up.example.com/x'))).not.toBe(
      fingerprint(http('https://a:b@up.example.org/x')),
    );
  });

  it('counts where a secret variable points too, never its credential parts', () => {
    const raw = { command: 'srv', args: ['--db', '${DATABASE_URL}'] };
    const at = (url: string) => fingerprint(raw, { tenant: { DATABASE_URL: url } });
    expect(at('postgres://u:p@db.internal/app')).toBe(at('postgres://u:rotated@db.internal/app'));
    expect(at('postgres://u:p@db.internal/app')).not.toBe(at('postgres://u:p@evil.example/app'));
  });

  it('a token that names no destination still rotates freely', () => {
    const token = (value: string) => ({ command: 'srv', env: { API_TOKEN: value } });
    expect(fingerprint(token('ghp_aaaaaaaaaaaaaaaaaaaaaaaa'))).toBe(fingerprint(token('hunter2')));
  });
});
