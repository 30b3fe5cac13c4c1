import { decideActivation } from '@gatehouse/activation';
import { resolveDefinitions, type EffectiveEntry } from '@gatehouse/definitions';
import { activationEntryOf, activationWorkspaceOf } from './activation-inputs';

const WORKSPACE_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '22222222-2222-4222-8222-222222222222';

function resolveOne(
  tier: 'managed' | 'project' | 'user',
  server: Record<string, unknown>,
  options: { userVariables?: Record<string, string>; disabled?: boolean } = {},
): EffectiveEntry {
  const origin =
    tier === 'managed'
      ? 'managed:policy'
      : tier === 'project'
        ? `project:${WORKSPACE_ID}`
        : `user:${USER_ID}`;
  const result = resolveDefinitions({
    sources: [
      { tier, origin, readability: 'readable', document: JSON.stringify({ mcpServers: { docs: server } }) },
    ],
    variables: { tenant: {}, workspace: {}, user: options.userVariables ?? {} },
    overlays: options.disabled ? [{ serverName: 'docs', scope: { kind: 'workspace' } }] : [],
    view:
      tier === 'user' || options.userVariables
        ? { kind: 'principal', userId: USER_ID }
        : { kind: 'workspace' },
    fingerprintKey: { id: 'k1', bytes: new Uint8Array(32).fill(1) },
  });
  const entry = result.entries.find((candidate) => candidate.name === 'docs');
  if (entry === undefined) throw new Error('no entry');
  return entry;
}

describe('activationEntryOf', () => {
  it('a resolved entry is usable with its fingerprint and security identity key', () => {
    const entry = resolveOne('project', { command: 'node', args: ['server.js'] });
    const mapped = activationEntryOf(entry);
    expect(mapped).toMatchObject({ usable: true, name: 'docs', source: { tier: 'project' } });
    if (!mapped.usable || entry.status !== 'resolved') throw new Error('expected usable');
    expect(mapped.fingerprint).toBe(entry.fingerprint);
    expect(mapped.securityIdentity).toBe(entry.identity.key);
    expect(mapped.securityIdentity).toMatch(/^sid:v1:/);
  });

  it('carries requiresTrustedWorkspace, so an untrusted workspace refuses even a managed entry asking for trust', () => {
    const entry = resolveOne('managed', {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      requiresTrustedWorkspace: true,
    });
    const mapped = activationEntryOf(entry);
    expect(mapped.requiresTrustedWorkspace).toBe(true);
    const untrusted = activationWorkspaceOf({
      id: WORKSPACE_ID,
      repositoryIdentity: null,
      generation: 1,
      trusted: false,
    });
    expect(decideActivation(mapped, untrusted, { kind: 'workspace' }, [], new Date()).state).toBe(
      'untrusted',
    );
  });

  it('an entry with an unset variable is not usable (pending, never approvable)', () => {
    const entry = resolveOne('project', { command: 'node', env: { API_KEY: '${API_KEY}' } });
    expect(entry.status).toBe('unresolved');
    expect(activationEntryOf(entry)).toMatchObject({ usable: false, status: 'unresolved' });
  });

  it('a disabled entry is not usable, whatever it would resolve to', () => {
    const entry = resolveOne('project', { command: 'node' }, { disabled: true });
    expect(entry.status).toBe('disabled');
    expect(activationEntryOf(entry)).toMatchObject({ usable: false, status: 'disabled' });
  });

  it('an entry reading a user variable is per user', () => {
    const entry = resolveOne(
      'managed',
      { command: 'node', env: { OWNER: '${HANDLE}' } },
      { userVariables: { HANDLE: 'me' } },
    );
    expect(entry.status).toBe('resolved');
    expect(activationEntryOf(entry).perUser).toBe(true);
  });
});

describe('activationWorkspaceOf', () => {
  it('binds a workspace without a repository to its own id, never to an empty identity another could share', () => {
    const a = activationWorkspaceOf({
      id: WORKSPACE_ID,
      repositoryIdentity: null,
      generation: 3,
      trusted: true,
    });
    const b = activationWorkspaceOf({ id: USER_ID, repositoryIdentity: null, generation: 3, trusted: true });
    expect(a.repositoryIdentity).toBe(`workspace:${WORKSPACE_ID}`);
    expect(a.repositoryIdentity).not.toBe(b.repositoryIdentity);
    expect(
      activationWorkspaceOf({
        id: WORKSPACE_ID,
        repositoryIdentity: 'https://git.example.com/a/b',
        generation: 3,
        trusted: true,
      }).repositoryIdentity,
    ).toBe('https://git.example.com/a/b');
  });
});
