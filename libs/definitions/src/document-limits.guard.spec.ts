import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH, utf8ByteLength } from './document-limits.guard';
import { checkDocumentText, decodeDefinitionDocument, decodeDefinitionValue } from './document-decoder';
import type { SourceRef } from './tier';

const source: SourceRef = { tier: 'user', origin: 'user:u1' };

function problemOf(text: string) {
  const decoded = decodeDefinitionDocument(text, source);
  if (decoded.readable) throw new Error('expected unreadable');
  return decoded.problem;
}

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('duplicate keys (refused at decode, naming the path)', () => {
  it.each([
    ['two mcpServers members', '{"mcpServers":{"a":{"command":"echo"}},"mcpServers":{}}', ['mcpServers']],
    [
      'a server named twice',
      '{"mcpServers":{"a":{"command":"echo"},"a":{"command":"rm"}}}',
      ['mcpServers', 'a'],
    ],
    [
      'two command keys',
      '{"mcpServers":{"a":{"command":"echo","command":"rm"}}}',
      ['mcpServers', 'a', 'command'],
    ],
    [
      'an env key twice',
      '{"mcpServers":{"a":{"command":"x","env":{"A":"1","B":"2","A":"3"}}}}',
      ['mcpServers', 'a', 'env', 'A'],
    ],
    [
      'the same key once escaped',
      '{"mcpServers":{"a":{"command":"x","comm\\u0061nd":"y"}}}',
      ['mcpServers', 'a', 'command'],
    ],
    ['a key inside a list', '{"x":[1,{"k":1},{"k":1,"k":2}],"mcpServers":{}}', ['x', 2, 'k']],
  ])('refuses %s', (_name, text, path) => {
    expect(problemOf(text)).toEqual({ reason: 'duplicate_key', path });
  });

  it('never shows a credential-shaped key in the path, only its position as written', () => {
    const key = 'ghp_0123456789abcdefghijABCDEFGHIJ';
    const text = `{"mcpServers":{"a":{"command":"x","env":{"B":"1","${key}":"1","${key}":"2"}}}}`;
    expect(problemOf(text)).toEqual({ reason: 'duplicate_key', path: ['mcpServers', 'a', 'env', '#2'] });
  });

  it('is not fooled by quotes, backslashes and brackets inside strings, nor by the same key in sibling objects', () => {
    const document = {
      mcpServers: {
        a: {
          command: 'x\\',
          args: ['{"command":', '\\"', '}', ',"command":"', '[', ']'],
          env: { K: '\\\\"' },
        },
        b: { command: 'x', env: { K: '"}' } },
      },
      'a"b': 1,
      'a\\"b': 2,
    };
    const decoded = decodeDefinitionDocument(JSON.stringify(document), source);
    expect(decoded.readable).toBe(true);
  });
});

describe('depth (bounded before any walk)', () => {
  it('refuses a document nested 5,000 levels as text and as a value, naming where it passes the bound', () => {
    const text = `{"mcpServers":{"deep":{"command":"x","env":{"X":${nested(5_000)}}}}}`;
    const problem = problemOf(text);
    expect(problem.reason).toBe('document_too_deep');
    expect(problem.path.slice(0, 4)).toEqual(['mcpServers', 'deep', 'env', 'X']);
    expect(problem.path).toHaveLength(MAX_DOCUMENT_DEPTH);
    const value = decodeDefinitionValue(JSON.parse(text), source);
    expect(value).toEqual({ readable: false, problem });
  });

  it('reads a document exactly at the bound (the deep entry alone is malformed)', () => {
    const inner = MAX_DOCUMENT_DEPTH - 4;
    const text = `{"mcpServers":{"deep":{"command":"x","env":{"X":${nested(inner)}}},"ok":{"command":"y"}}}`;
    const decoded = decodeDefinitionDocument(text, source);
    if (!decoded.readable) throw new Error('expected readable');
    expect(decoded.entries.map((e) => [e.name, e.kind])).toEqual([
      ['deep', 'malformed'],
      ['ok', 'valid'],
    ]);
  });
});

describe('size', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8ByteLength('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8ByteLength('\ud800x')).toBe(4);
  });

  it('refuses text longer than the bound in UTF-8 bytes, even when its characters fit', () => {
    const pad = (text: string) => `{"mcpServers":{},"x":"${text}"}`;
    expect(checkDocumentText(pad('a'.repeat(MAX_DOCUMENT_BYTES - 30))).ok).toBe(true);
    expect(problemOf(pad('a'.repeat(MAX_DOCUMENT_BYTES)))).toEqual({
      reason: 'document_too_large',
      path: [],
    });
    const wide = 'é'.repeat(MAX_DOCUMENT_BYTES / 2);
    expect(wide.length).toBeLessThan(MAX_DOCUMENT_BYTES);
    expect(problemOf(pad(wide))).toEqual({ reason: 'document_too_large', path: [] });
  });
});
