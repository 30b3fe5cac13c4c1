import type { CanonicalUrlFailure } from './canonical-url';
import type { EntryProblem, PathSegment } from './decode-problem';
import type { RejectedTransport } from './definition-decoder';
import type { DisableReason } from './disable-overlay';
import type { SourceProblemReason } from './document-decoder';
import type { RedactedProjection } from './redacted-projection';
import type { SecurityIdentity } from './security-identity';
import type { SourceRef } from './tier';
import type { MaterializeProblem, UnsetVariable, VariableUse } from './variable-materializer';

/** A lower-precedence entry of the same name: listed, never used. */
export interface ShadowedEntry {
  readonly source: SourceRef;
  readonly state: 'valid' | 'malformed' | 'rejected';
}

interface EntryBase {
  readonly name: string;
  /** The winning source (for `blocked`, the source that would have won; for `ambiguous`, the first contender). */
  readonly source: SourceRef;
  readonly shadowed: readonly ShadowedEntry[];
}

/** Usable for activation: fully materialized, with its fingerprint, identity and projection. */
export interface ResolvedEntry extends EntryBase {
  readonly status: 'resolved';
  readonly fingerprint: string;
  readonly identity: SecurityIdentity;
  readonly projection: RedactedProjection;
  /** Depends on a user or local tier or on a user variable: approved per user. */
  readonly perUser: boolean;
  /** Which variables it read, from where (names only). A change to any of them changes what a lease was based on. */
  readonly variables: readonly VariableUse[];
}

/** A problem a materialized value has (see {@link MaterializeProblem} and {@link CanonicalUrlFailure}). */
export interface ValueProblem {
  readonly reason: MaterializeProblem['reason'] | CanonicalUrlFailure;
  readonly path: readonly PathSegment[];
}

export type UnresolvedEntry = EntryBase & { readonly status: 'unresolved' } & (
    | { readonly reason: 'malformed'; readonly problems: readonly EntryProblem[] }
    | {
        readonly reason: 'unset_variable';
        readonly unset: readonly UnsetVariable[];
        readonly projection: RedactedProjection;
        readonly perUser: boolean;
      }
    | {
        readonly reason: 'invalid_value';
        readonly valueProblems: readonly ValueProblem[];
        readonly projection: RedactedProjection;
      }
    | { readonly reason: 'ambiguous_within_tier'; readonly contenders: readonly SourceRef[] }
  );

export type UnresolvedReason = UnresolvedEntry['reason'];

export interface BlockedEntry extends EntryBase {
  readonly status: 'blocked';
  readonly reason: 'managed_source_unreadable';
  readonly unreadableOrigins: readonly string[];
}

export interface RejectedEntry extends EntryBase {
  readonly status: 'rejected';
  readonly reason: 'unsupported_transport';
  readonly transport: RejectedTransport;
}

/** What resolution gives for a name before overlays. */
export type ActiveEntry = ResolvedEntry | UnresolvedEntry | BlockedEntry | RejectedEntry;

/** Disabled by an overlay: still listed, with its reason and the entry it would otherwise be, unchanged. */
export interface DisabledEntry {
  readonly name: string;
  readonly status: 'disabled';
  readonly reason: DisableReason;
  readonly entry: ActiveEntry;
}

export type EffectiveEntry = ActiveEntry | DisabledEntry;
export type EntryStatus = EffectiveEntry['status'];

export interface SourceProblem {
  readonly source: SourceRef;
  readonly reason: SourceProblemReason;
  readonly path: readonly PathSegment[];
  /** `blocking`: an unreadable managed source (lower-tier names are blocked). Everything else is informational. */
  readonly severity: 'blocking' | 'informational';
}
