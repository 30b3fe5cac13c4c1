import { decodeServerEntry } from './definition-decoder';
import { resolveDefinitions } from './definitions-resolver';
import type { ResolvedEntry, UnresolvedEntry } from './effective-entry';
import { escapeInvisible, hasInvisibleCharacter } from './invisible-character';
import type { SourceRef } from './tier';

const source: SourceRef = { tier: 'user', origin: 'user:u1' };
const fingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(3) };

function problemsOf(raw: unknown) {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'malformed') throw new Error(`expected malformed, got ${decoded.kind}`);
  return decoded.problems;
}

function resolveOne(entry: unknown, variables: Record<string, string> = {}) {
  const result = resolveDefinitions({
    sources: [
      { ...source, readability: 'readable', document: JSON.stringify({ mcpServers: { srv: entry } }) },
    ],
    variables: { tenant: variables },
    overlays: [],
    view: { kind: 'principal', userId: 'u1' },
    fingerprintKey,
  });
  return result.entries[0];
}

const INVISIBLE: readonly [string, string][] = [
  ['NUL', '\u0000'],
  ['a tab (C0)', '\t'],
  ['a line feed (C0)', '\n'],
  ['DEL', '\u007f'],
  ['a C1 control', '\u0085'],
  ['the right-to-left override', '\u202e'],
  ['a left-to-right embedding', '\u202a'],
  ['the first strong isolate', '\u2068'],
  ['the pop directional isolate', '\u2069'],
  ['a right-to-left mark', '\u200f'],
  ['a zero-width space', '\u200b'],
  ['a zero-width joiner', '\u200d'],
  ['the byte-order mark', '\ufeff'],
  ['a soft hyphen', '\u00ad'],
  ['a line separator', '\u2028'],
  ['a tag character', '\u{e0041}'],
  ['a lone surrogate', '\ud800'],
];

describe('hasInvisibleCharacter / escapeInvisible', () => {
  it.each(INVISIBLE)('finds and escapes %s', (_name, char) => {
    expect(hasInvisibleCharacter(`a${char}b`)).toBe(true);
    const escaped = escapeInvisible(`a${char}b`);
    expect(hasInvisibleCharacter(escaped)).toBe(false);
    expect(escaped).toMatch(/^a\\u(\{[0-9A-F]+\}|[0-9A-F]{4})b$/);
  });

  it('writes the escapes a person can read back', () => {
    expect(escapeInvisible('rm\u202e-rf')).toBe('rm\\u202E-rf');
    expect(escapeInvisible('\u0000')).toBe('\\u0000');
    expect(escapeInvisible('x\u{e0041}')).toBe('x\\u{E0041}');
  });

  it('leaves visible text alone, other scripts and emoji included', () => {
    for (const text of ['/usr/bin/node', 'café', 'データ', 'عربى', '😀', 'a b']) {
      expect(hasInvisibleCharacter(text)).toBe(false);
      expect(escapeInvisible(text)).toBe(text);
    }
  });
});

describe('refused at decode where none can be meant', () => {
  it.each(INVISIBLE)(
    'refuses %s in command, cwd, URL, the header helper program and the OAuth client id',
    (_n, c) => {
      expect(problemsOf({ command: `node${c}` })).toEqual([
        { reason: 'invisible_character', path: ['command'] },
      ]);
      expect(problemsOf({ command: 'node', cwd: `/srv${c}/app` })).toEqual([
        { reason: 'invisible_character', path: ['cwd'] },
      ]);
      expect(problemsOf({ type: 'http', url: `https://h.example/${c}mcp` })).toEqual([
        { reason: 'invisible_character', path: ['url'] },
      ]);
      expect(
        problemsOf({ type: 'http', url: 'https://h.example/', headersHelper: [`/bin/h${c}`, `ok${c}`] }),
      ).toEqual([{ reason: 'invisible_character', path: ['headersHelper', 0] }]);
      expect(problemsOf({ type: 'http', url: 'https://h.example/', oauth: { clientId: `app${c}` } })).toEqual(
        [{ reason: 'invisible_character', path: ['oauth', 'clientId'] }],
      );
    },
  );

  it('refuses them in a default of a reference too, and when a variable brings them in', () => {
    expect(problemsOf({ command: '${BIN:-node\u202e}' })).toEqual([
      { reason: 'invisible_character', path: ['command'] },
    ]);
    const entry = resolveOne({ command: '${BIN}', cwd: '${DIR}' }, { BIN: 'node\u200b', DIR: '/srv\u2066' });
    expect(entry).toMatchObject({ status: 'unresolved', reason: 'invalid_value' });
    expect((entry as UnresolvedEntry & { valueProblems: unknown }).valueProblems).toEqual([
      { reason: 'invisible_character', path: ['command'] },
      { reason: 'invisible_character', path: ['cwd'] },
    ]);
    const http = resolveOne({ type: 'http', url: 'https://h.example/${P}' }, { P: 'a\u202eb' });
    expect(http).toMatchObject({ status: 'unresolved', reason: 'invalid_value' });
  });
});

describe('shown escaped where an argument may carry them', () => {
  it('escapes arguments in the projection, the command line and the identity display', () => {
    const entry = resolveOne({
      command: 'grep',
      args: ['--sep=\t', 'safe\u202e\u2066txt.exe'],
    }) as ResolvedEntry;
    expect(entry.status).toBe('resolved');
    const transport = entry.projection.transport;
    if (transport.kind !== 'stdio') throw new Error('expected stdio');
    expect(transport.args).toEqual(['--sep=\\u0009', 'safe\\u202E\\u2066txt.exe']);
    expect(transport.commandLine).toBe("grep '--sep=\\u0009' 'safe\\u202E\\u2066txt.exe'");
    expect(entry.identity.display).toBe(transport.commandLine);
    const shown = JSON.stringify(entry.projection) + entry.identity.display;
    expect(hasInvisibleCharacter(shown)).toBe(false);
  });

  it('escapes the header helper arguments', () => {
    const entry = resolveOne({
      type: 'http',
      url: 'https://h.example/',
      headersHelper: ['/bin/h', 'a\u200bb'],
    });
    expect((entry as ResolvedEntry).projection.transport).toMatchObject({
      headersHelper: ['/bin/h', 'a\\u200Bb'],
    });
  });
});

describe('lexical `..` in cwd', () => {
  it.each([['/srv/../etc'], ['..'], ['../x'], ['/srv/app/..'], ['C:\\srv\\..\\x'], ['${HOME:-/h}/../x']])(
    'refuses %s at decode',
    (cwd) => {
      expect(problemsOf({ command: 'node', cwd })).toEqual([{ reason: 'cwd_parent_segment', path: ['cwd'] }]);
    },
  );

  it('accepts names that merely contain dots', () => {
    for (const cwd of ['/srv/..app', '/srv/app..', '/srv/./app', '/srv/...']) {
      expect(decodeServerEntry('srv', { command: 'node', cwd }, source).kind).toBe('valid');
    }
  });

  it('refuses a `..` a variable brings in', () => {
    const entry = resolveOne({ command: 'node', cwd: '/srv/${SUB}' }, { SUB: '../etc' });
    expect(entry).toMatchObject({
      status: 'unresolved',
      reason: 'invalid_value',
      valueProblems: [{ reason: 'cwd_parent_segment', path: ['cwd'] }],
    });
  });
});
