import fc from 'fast-check';
import {
  baseName,
  hashedName,
  MCP_NAME_BUDGET,
  MCP_NAME_PATTERN,
  mintNames,
  sanitizeSegment,
  serverSegment,
  type NameRequest,
} from './mcp-name-minter';

const names = (requests: NameRequest[]) => mintNames(requests).names;

describe('baseName', () => {
  it('keeps a name that fits and needs no rewriting exactly', () => {
    expect(baseName('github', 'get_issue')).toEqual({ name: 'mcp__github__get_issue', exact: true });
    expect(baseName('my-srv', 'A-9_z')).toEqual({ name: 'mcp__my-srv__A-9_z', exact: true });
  });

  it('sanitizes every code point outside [A-Za-z0-9_-] to one underscore', () => {
    expect(baseName('fs', 'files.read')).toEqual({ name: 'mcp__fs__files_read', exact: false });
    expect(sanitizeSegment('a b/c:d\u0000é😀\ud800')).toBe('a_b_c_d____');
    expect(sanitizeSegment('')).toBe('_');
  });

  it('shortens a long tool name with a hash of both raw names, within the budget', () => {
    const long = `create_${'x'.repeat(100)}`;
    const minted = baseName('github', long).name;
    expect(minted).toHaveLength(MCP_NAME_BUDGET);
    expect(minted).toMatch(/^mcp__github__create_x+_[0-9a-f]{12}$/);
    expect(baseName('github', `${long}y`).name).not.toBe(minted);
    expect(baseName('gitlab', long).name.slice(-12)).not.toBe(minted.slice(-12));
  });

  it('shortens a server name longer than its share with a hash of the raw name', () => {
    const server = 'a-very-long-server-name-indeed-0123456789';
    expect(serverSegment(server)).toMatch(/^a-very-long-ser_[0-9a-f]{8}$/);
    expect(serverSegment(server)).toHaveLength(24);
    expect(serverSegment(`${server}x`)).not.toBe(serverSegment(server));
    expect(baseName(server, 'tool').exact).toBe(false);
  });
});

describe('mintNames', () => {
  it('ranks an exact name above a rewritten one and renames the loser with a hash', () => {
    const minted = mintNames([
      { server: 'fs', remote: 'read.file' },
      { server: 'fs', remote: 'read_file' },
    ]);
    expect(minted.names[1]).toBe('mcp__fs__read_file');
    expect(minted.names[0]).toBe(hashedName('fs', 'read.file'));
    expect(minted.names[0]).toMatch(/^mcp__fs__read_file_[0-9a-f]{12}$/);
    expect(minted.collisions).toEqual([
      {
        server: 'fs',
        remote: 'read.file',
        winner: { server: 'fs', remote: 'read_file' },
        resolution: 'renamed',
        name: minted.names[0],
      },
    ]);
  });

  it('ranks two rewritten names by raw code-unit order, whatever order they came in', () => {
    const a = { server: 'fs', remote: 'read file' };
    const b = { server: 'fs', remote: 'read.file' };
    expect(names([a, b])).toEqual([...names([b, a])].reverse());
    expect(names([a, b])[0]).toBe('mcp__fs__read_file');
  });

  it('resolves the separator ambiguity across servers by server name', () => {
    const minted = mintNames([
      { server: 'a__b', remote: 'c' },
      { server: 'a', remote: 'b__c' },
    ]);
    expect(minted.names[1]).toBe('mcp__a__b__c');
    expect(minted.collisions).toEqual([
      expect.objectContaining({ server: 'a__b', remote: 'c', winner: { server: 'a', remote: 'b__c' } }),
    ]);
  });

  it('drops a loser whose hashed name is taken too, and reports it', () => {
    const renamed = hashedName('fs', 'a.b');
    const squatter = renamed.slice('mcp__fs__'.length);
    const minted = mintNames([
      { server: 'fs', remote: 'a.b' },
      { server: 'fs', remote: 'a_b' },
      { server: 'fs', remote: squatter },
    ]);
    expect(minted.names).toEqual([null, 'mcp__fs__a_b', renamed]);
    expect(minted.collisions).toEqual([
      { server: 'fs', remote: 'a.b', winner: { server: 'fs', remote: 'a_b' }, resolution: 'dropped' },
    ]);
  });
});

describe('mintNames properties', () => {
  const anyText = fc.string({ unit: 'binary', minLength: 1, maxLength: 160 });
  const nearText = fc.stringMatching(/^[a-c._ -]{1,6}$/);
  const serverName = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,70}$/), anyText, nearText);
  const remoteName = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,130}$/), anyText, nearText);
  const requests = fc.uniqueArray(fc.record({ server: serverName, remote: remoteName }), {
    maxLength: 40,
    selector: (r) => `${r.server}\u0000${r.remote}`,
  });

  it('always mints names within the budget and charset, collision-free, reporting every loser', () => {
    fc.assert(
      fc.property(requests, (reqs) => {
        const minted = mintNames(reqs);
        const given = minted.names.filter((n): n is string => n !== null);
        for (const name of given) expect(name).toMatch(MCP_NAME_PATTERN);
        expect(new Set(given).size).toBe(given.length);
        // A loser is dropped only when a 48-bit hash collides: never in practice.
        expect(given).toHaveLength(reqs.length);
        const renamed = minted.collisions.filter((c) => c.resolution === 'renamed');
        expect(renamed).toHaveLength(minted.collisions.length);
        for (const c of minted.collisions) {
          const i = reqs.findIndex((r) => r.server === c.server && r.remote === c.remote);
          expect(minted.names[i]).toBe(c.name);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic: the same pairs in any order get the same names', () => {
    fc.assert(
      fc.property(
        requests.chain((reqs) =>
          fc.tuple(fc.constant(reqs), fc.shuffledSubarray(reqs, { minLength: reqs.length })),
        ),
        ([reqs, shuffled]) => {
          const byKey = (list: NameRequest[]) => {
            const minted = mintNames(list);
            return new Map(list.map((r, i) => [`${r.server}\u0000${r.remote}`, minted.names[i]]));
          };
          expect(byKey(shuffled)).toEqual(byKey(reqs));
          expect(mintNames(reqs)).toEqual(mintNames(reqs));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps an exact name that fits unchanged', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9-]{1,24}$/),
        fc.stringMatching(/^[A-Za-z0-9-]{1,33}$/),
        (s, t) => {
          expect(names([{ server: s, remote: t }])).toEqual([`mcp__${s}__${t}`]);
        },
      ),
    );
  });
});
