/**
 * What activation needs to know, declared structurally so this lib stays decoupled from how definitions are
 * resolved: the API maps a resolved entry (@gatehouse/definitions) and a workspace row onto these shapes.
 * Field names follow @gatehouse/definitions where it has them (`name`, `source`, `fingerprint`, `perUser`).
 */

/** The five definition tiers (same spelling as @gatehouse/definitions). */
export const SOURCE_TIERS = ['managed', 'local', 'project', 'user', 'plugin'] as const;
export type SourceTier = (typeof SOURCE_TIERS)[number];

/** Where an entry came from: the tier and the origin inside it (`managed:org-policy`, `plugin:<plugin>`). */
export interface EntrySource {
  readonly tier: SourceTier;
  readonly origin: string;
}

interface EntryBase {
  readonly name: string;
  readonly source: EntrySource;
  /** Depends on a user or local tier or on a user variable: approved per user, never for the workspace alone. */
  readonly perUser: boolean;
  /** The definition asks for a trusted workspace (a check it asks for, never a claim of trust). */
  readonly requiresTrustedWorkspace: boolean;
}

/** Fully resolved: it has the exact fingerprint and security identity an approval binds to. */
export interface UsableEntry extends EntryBase {
  readonly usable: true;
  /** The definition fingerprint: every value that decides what runs or where it connects. */
  readonly fingerprint: string;
  /** The security identity key (`sid:v1:...`): which server, from which source. */
  readonly securityIdentity: string;
}

/** The resolution status that keeps an entry from being approvable (an unset variable leaves it `unresolved`). */
export type UnusableStatus = 'unresolved' | 'blocked' | 'rejected' | 'disabled';

/** Listed but not approvable: there is no exact definition to bind an approval to. */
export interface UnusableEntry extends EntryBase {
  readonly usable: false;
  readonly status: UnusableStatus;
}

export type ActivationEntry = UsableEntry | UnusableEntry;

export interface ActivationWorkspace {
  readonly id: string;
  /** The canonical repository URL or id the workspace is bound to. */
  readonly repositoryIdentity: string;
  /** Bumping it invalidates every approval bound to the old generation. */
  readonly generation: number;
  readonly trusted: boolean;
}

/** Whom the decision is for: the workspace alone (managed, project and plugin tiers), or one user. */
export type ActivationView =
  { readonly kind: 'workspace' } | { readonly kind: 'principal'; readonly userId: string };
