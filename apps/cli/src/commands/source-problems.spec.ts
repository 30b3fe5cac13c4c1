import { sourceProblemLines } from './source-problems';

describe('sourceProblemLines', () => {
  it('names the source and the reason of each problem, with its path when it has one', () => {
    expect(
      sourceProblemLines([
        { source: { tier: 'project', origin: 'project:ws-1' }, reason: 'storage_unreadable', path: [] },
        { source: { tier: 'user', origin: 'user:u-1' }, reason: 'duplicate_key', path: ['mcpServers', 'a'] },
      ]),
    ).toEqual([
      'gatehouse: servers: project:ws-1: storage_unreadable (its servers are not listed)',
      'gatehouse: servers: user:u-1: duplicate_key at mcpServers.a (its servers are not listed)',
    ]);
  });

  it('leaves out sources outside the view, and reads a problem of an unknown shape without failing', () => {
    expect(
      sourceProblemLines([
        { source: { tier: 'user', origin: 'user:u-2' }, reason: 'outside_view', path: [] },
        { reason: 'unknown_root_key', path: ['extra'] },
        'not an object',
      ]),
    ).toEqual(['gatehouse: servers: a source: unknown_root_key at extra']);
  });
});
