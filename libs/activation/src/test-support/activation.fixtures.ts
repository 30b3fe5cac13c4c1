// Builders for the activation specs: an entry, a workspace and approval records bound to them.
import type {
  ActivationEntry,
  ActivationView,
  ActivationWorkspace,
  SourceTier,
  UsableEntry,
} from '../activation-types';
import { approvalIdentityOf } from '../approval-identity';
import type { ApprovalRecord } from '../approval-record';

export const T0 = new Date('2026-03-01T12:00:00.000Z');

/** `minutes` after T0 (negative: before). */
export function at(minutes: number): Date {
  return new Date(T0.getTime() + minutes * 60_000);
}

export const NOW = at(60);

const ORIGINS: Readonly<Record<SourceTier, string>> = {
  managed: 'managed:org-policy',
  local: 'local:ws-1:alice',
  project: 'project:ws-1',
  user: 'user:alice',
  plugin: 'plugin:acme-tools',
};

/** A usable entry from `tier`; user and local entries are per user, as resolution marks them. */
export function usableEntry(tier: SourceTier, overrides: Partial<UsableEntry> = {}): UsableEntry {
  return {
    usable: true,
    name: 'github',
    source: { tier, origin: ORIGINS[tier] },
    perUser: tier === 'user' || tier === 'local',
    requiresTrustedWorkspace: false,
    fingerprint: 'fp:v1:aaaa',
    securityIdentity: 'sid:v1:1111',
    ...overrides,
  };
}

export function workspace(overrides: Partial<ActivationWorkspace> = {}): ActivationWorkspace {
  return {
    id: 'ws-1',
    repositoryIdentity: 'https://git.example.com/acme/app',
    generation: 3,
    trusted: true,
    ...overrides,
  };
}

export const WORKSPACE_VIEW: ActivationView = { kind: 'workspace' };
export const ALICE: ActivationView = { kind: 'principal', userId: 'alice' };
export const BOB: ActivationView = { kind: 'principal', userId: 'bob' };

let nextId = 0;

/** An approval record for the exact identity of (entry, workspace, view), approved by a human at T0. */
export function approvalFor(
  entry: ActivationEntry,
  ws: ActivationWorkspace,
  view: ActivationView,
  overrides: Partial<ApprovalRecord> = {},
): ApprovalRecord {
  const result = approvalIdentityOf(entry, ws, view);
  if (!result.ok) throw new Error(`fixture: no approval identity (${result.reason})`);
  const identity = result.identity;
  nextId += 1;
  return {
    id: `apr-${nextId}`,
    serverName: identity.serverName,
    source: identity.source,
    definitionFingerprint: identity.definitionFingerprint,
    securityIdentity: identity.securityIdentity,
    principalUserId: identity.principalUserId,
    repositoryIdentity: identity.repositoryIdentity,
    workspaceGeneration: identity.workspaceGeneration,
    decision: 'approved',
    decidedBy: 'carol',
    decidedAt: T0,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}
