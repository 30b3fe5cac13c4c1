import { decodeDefinitionDocument } from './document.decoder';
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
