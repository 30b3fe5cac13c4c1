import type { DecodedEntry } from './definition-decoder';
import { decidePrecedence } from './tier-precedence';
import type { SourceRef, Tier } from './tier';

function malformed(tier: Tier, origin = `${tier}:o`): DecodedEntry {
  return {
    kind: 'malformed',
    name: 'srv',
    source: { tier, origin },
    problems: [{ reason: 'unknown_key', path: ['x'] }],
  };
}
function rejected(tier: Tier, origin = `${tier}:o`): DecodedEntry {
  return { kind: 'rejected', name: 'srv', source: { tier, origin }, transport: 'sse' };
}
function valid(tier: Tier, origin = `${tier}:o`): DecodedEntry {
  return {
    kind: 'valid',
    name: 'srv',
    source: { tier, origin },
    definition: {
      transport: { kind: 'stdio', command: [{ kind: 'text', text: 'x' }], args: [], env: [], cwd: null },
      requiresTrustedWorkspace: false,
      options: { elicitation: false },
    },
  };
}
const sources = (entries: readonly DecodedEntry[]): SourceRef[] => entries.map((e) => e.source);

describe('decidePrecedence', () => {
  it('ranks managed > local > project > user > plugin', () => {
    const all = [valid('plugin'), valid('user'), valid('project'), valid('local'), valid('managed')];
    const decision = decidePrecedence(all, []);
    expect(decision.kind === 'winner' && decision.winner.source.tier).toBe('managed');
    expect(sources(decision.shadowed).map((s) => s.tier)).toEqual(['local', 'project', 'user', 'plugin']);
    expect(decidePrecedence([valid('plugin'), valid('user')], []).kind === 'winner').toBe(true);
    const userOverPlugin = decidePrecedence([valid('plugin'), valid('user')], []);
    expect(userOverPlugin.kind === 'winner' && userOverPlugin.winner.source.tier).toBe('user');
  });

  it('lets a malformed or rejected winner keep the name', () => {
    const m = decidePrecedence([valid('user'), malformed('project')], []);
    expect(m.kind === 'winner' && m.winner.kind).toBe('malformed');
    const r = decidePrecedence([valid('plugin'), rejected('local')], []);
    expect(r.kind === 'winner' && r.winner.kind).toBe('rejected');
  });

  it('blocks a lower-tier name while a managed origin is unreadable', () => {
    expect(decidePrecedence([valid('project')], ['managed:broken'])).toEqual({
      kind: 'blocked',
      wouldWin: [valid('project')],
      shadowed: [],
      unreadableManagedOrigins: ['managed:broken'],
    });
  });

  it('does not block a name another, readable managed origin defines', () => {
    const decision = decidePrecedence([valid('project'), valid('managed', 'managed:ok')], ['managed:broken']);
    expect(decision.kind === 'winner' && decision.winner.source.origin).toBe('managed:ok');
  });

  it('fails closed when two origins of the winning tier define the name', () => {
    const decision = decidePrecedence(
      [valid('plugin', 'plugin:b'), valid('plugin', 'plugin:a'), valid('plugin', 'plugin:c')],
      [],
    );
    expect(decision.kind).toBe('ambiguous');
    if (decision.kind === 'ambiguous')
      expect(sources(decision.contenders).map((s) => s.origin)).toEqual(['plugin:a', 'plugin:b', 'plugin:c']);
    const higher = decidePrecedence(
      [valid('plugin', 'plugin:b'), valid('plugin', 'plugin:a'), valid('user')],
      [],
    );
    expect(higher.kind === 'winner' && higher.winner.source.tier).toBe('user');
  });

  it('refuses an empty candidate list (a bug)', () => {
    expect(() => decidePrecedence([], [])).toThrow();
  });
});
