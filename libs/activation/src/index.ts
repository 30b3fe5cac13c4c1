// Public surface of @gatehouse/activation (pure: no I/O, no process state, no framework). Exact-identity
// activation decisions, the approval identity, who may decide and the projection diff. (It defines no store
// ports: the API's use cases read and write approvals through libs/db in one transaction; decision 0037.)
export { SOURCE_TIERS } from './activation-types';
export type {
  ActivationEntry,
  ActivationView,
  ActivationWorkspace,
  EntrySource,
  SourceTier,
  UnusableEntry,
  UnusableStatus,
  UsableEntry,
} from './activation-types';
export { bindsToWorkspace, isPrincipalBound, needsTrustedWorkspace } from './source-tier.policy';

export { decideActivation } from './activation-decider';
export { ACTIVATION_REASONS, ACTIVATION_STATES } from './activation-decision';
export type { ActivationDecision, ActivationReason, ActivationState } from './activation-decision';
export { STALE_FIELDS, matchesExactly } from './approval-match';
export type { StaleField } from './approval-match';
export type { ApprovalDecisionKind, ApprovalRecord } from './approval-record';

export { approvalIdentityOf } from './approval-identity';
export type { ApprovalIdentity, ApprovalIdentityRefusal, ApprovalIdentityResult } from './approval-identity';

export { canDecide, DECIDE_SCOPE } from './decision-authority.guard';
export type {
  CanDecideInput,
  Decider,
  DeciderRole,
  DecisionAuthority,
  DecisionRefusal,
  DecisionRequest,
  DecisionVerb,
} from './decision-authority.guard';
export { decisionMatchesReview } from './review.guard';
export type { ReviewCheck, ReviewComparison, ReviewedField } from './review.guard';

export { diffProjections } from './projection-diff';
export type { ProjectionChange } from './projection-diff';

export type { ApprovalRequestTrigger } from './approval-request-trigger';

export {
  childEnvEntryProblem,
  DEFAULT_CHILD_ENV_KEYS,
  firstRefusedChildEnvKey,
  isChildEnvEntryCovered,
  isChildEnvKeyAllowed,
  narrowChildEnvKeys,
  SPAWNER_OWNED_ENV_KEYS,
} from './child-env-allowlist';
export type { ChildEnvEntryProblem } from './child-env-allowlist';

export {
  checkHeaderHelperAuthority,
  checkStdioAuthority,
  isWithinRoot,
  startsWithArgv,
} from './stdio-authority.guard';
export type {
  ArgvPrefix,
  HeaderHelperAuthority,
  HeaderHelperGrant,
  HeaderHelperRefusalReason,
  StdioAuthority,
  StdioAuthorityGrant,
  StdioLaunch,
  StdioRefusalReason,
} from './stdio-authority.guard';
