import {
  decodeDefinitionDocument,
  decodeDefinitionValue,
  MAX_SERVERS_PER_DOCUMENT,
} from './document-decoder';
import type { SourceRef } from './tier';

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

describe('decodeDefinitionDocument', () => {
  it.each([
    ['not JSON', '{"mcpServers": {', 'invalid_json', []],
    ['a list root', '[]', 'root_not_object', []],
    ['a string root', '"x"', 'root_not_object', []],
    ['no mcpServers', '{}', 'missing_mcp_servers', ['mcpServers']],
    ['mcpServers a list', '{"mcpServers": []}', 'mcp_servers_not_object', ['mcpServers']],
    ['mcpServers null', '{"mcpServers": null}', 'mcp_servers_not_object', ['mcpServers']],
  ])('makes the source unreadable for %s', (_name, text, reason, path) => {
    expect(decodeDefinitionDocument(text, source)).toEqual({ readable: false, problem: { reason, path } });
  });

  it('never quotes the document in an unreadable problem', () => {
    const secret = 'sk-live-CANARY-0123456789';
    const decoded = decodeDefinitionDocument(`{"mcpServers": {"a": {"env": {"K": "${secret}"}}`, source);
    expect(JSON.stringify(decoded)).not.toContain(secret);
  });

  it('decodes each entry alone: a bad entry never blocks its siblings', () => {
    const decoded = decodeDefinitionDocument(
      JSON.stringify({
        mcpServers: {
          good: { command: 'npx' },
          bad: { command: 'npx', bogus: 1 },
          old: { type: 'sse', url: 'https://x.example.com/sse' },
          'also-good': { type: 'http', url: 'https://y.example.com/mcp' },
        },
      }),
      source,
    );
    if (!decoded.readable) throw new Error('expected readable');
    expect(decoded.entries.map((e) => [e.name, e.kind])).toEqual([
      ['good', 'valid'],
      ['bad', 'malformed'],
      ['old', 'rejected'],
      ['also-good', 'valid'],
    ]);
    expect(decoded.problems).toEqual([]);
  });

  it('skips invalid server names with a problem naming their position', () => {
    const decoded = decodeDefinitionDocument(
      '{"mcpServers": {"ok_name": {"command": "x"}, "a__b": {"command": "x"}, "_x": {"command": "x"}, "__proto__": {"command": "x"}, "has space": {"command": "x"}}}',
      source,
    );
    if (!decoded.readable) throw new Error('expected readable');
    expect(decoded.entries.map((e) => e.name)).toEqual(['ok_name']);
    expect(decoded.problems).toEqual([
      { reason: 'invalid_server_name', path: ['mcpServers', 'a__b'] },
      { reason: 'invalid_server_name', path: ['mcpServers', '_x'] },
      { reason: 'invalid_server_name', path: ['mcpServers', '__proto__'] },
      { reason: 'invalid_server_name', path: ['mcpServers', '#4'] },
    ]);
  });

  it('skips server names shaped like a Gatehouse API token, never showing them in the problem path', () => {
    // Valid by syntax alone (letters, digits, one inner `_`); the audit guard refuses such text in any event.
    const tokenShaped = [
      'ghu_AAAAAAAAAAAAAAAAAAAAAAAA',
      'gha_0123456789abcdefXYZ',
      'x-ghg_abcdefghijklmnop01',
    ];
    const decoded = decodeDefinitionValue(
      {
        mcpServers: {
          github: { command: 'x' },
          [tokenShaped[0] as string]: { command: 'x' },
          [tokenShaped[1] as string]: { command: 'x' },
          [tokenShaped[2] as string]: { command: 'x' },
          // Near misses stay valid: 15 characters after the prefix, or a prefix no token has.
          ghu_AAAAAAAAAAAAAAA: { command: 'x' },
          ghx_AAAAAAAAAAAAAAAAAAAAAAAA: { command: 'x' },
        },
      },
      source,
    );
    if (!decoded.readable) throw new Error('expected readable');
    expect(decoded.entries.map((e) => e.name)).toEqual([
      'github',
      'ghu_AAAAAAAAAAAAAAA',
      'ghx_AAAAAAAAAAAAAAAAAAAAAAAA',
    ]);
    expect(decoded.problems).toEqual([
      { reason: 'invalid_server_name', path: ['mcpServers', '#1'] },
      { reason: 'invalid_server_name', path: ['mcpServers', '#2'] },
      { reason: 'invalid_server_name', path: ['mcpServers', '#3'] },
    ]);
    for (const name of tokenShaped) expect(JSON.stringify(decoded)).not.toContain(name);
  });

  it(`reads up to ${MAX_SERVERS_PER_DOCUMENT} servers, and refuses a larger document as a whole`, () => {
    const serversOf = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { command: 'x' }]));
    const atCap = decodeDefinitionValue({ mcpServers: serversOf(MAX_SERVERS_PER_DOCUMENT) }, source);
    if (!atCap.readable) throw new Error('expected readable');
    expect(atCap.entries).toHaveLength(MAX_SERVERS_PER_DOCUMENT);
    // Even when some of the members would have been skipped: the count of members is what is bounded.
    const over = { ...serversOf(MAX_SERVERS_PER_DOCUMENT), 'bad name': { command: 'x' } };
    expect(decodeDefinitionValue({ mcpServers: over }, source)).toEqual({
      readable: false,
      problem: { reason: 'too_many_servers', path: ['mcpServers'] },
    });
  });

  it('refuses root members that claim approval, and reports unknown ones, leaving the entries usable', () => {
    const decoded = decodeDefinitionDocument(
      '{"mcpServers": {"a": {"command": "x"}}, "approvedServers": ["a"], "enableAllProjectMcpServers": true, "__proto__": {}}',
      source,
    );
    if (!decoded.readable) throw new Error('expected readable');
    expect(decoded.entries).toHaveLength(1);
    expect(decoded.problems).toEqual([
      { reason: 'approval_claim', path: ['approvedServers'] },
      { reason: 'unknown_root_key', path: ['enableAllProjectMcpServers'] },
      { reason: 'forbidden_key', path: ['__proto__'] },
    ]);
  });
});
