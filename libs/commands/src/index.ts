export {
  CALLER_KINDS,
  TENANT_CALLERS,
  MAX_LONG_POLL_SECONDS,
  NEVER_OVER_MCP_PREFIXES,
  SURFACE_PROBLEMS,
  CommandDeclarationError,
  callersOf,
  defineCommand,
  longPollOf,
  mcpWithheldReason,
  problemsOf,
  successStatusOf,
  surfacesOf,
} from './command';
export type {
  CallerKind,
  CommandDefinition,
  CommandInput,
  CommandOutput,
  CommandRead,
  CommandSurfaces,
  HttpMethod,
  McpOffer,
  McpWithheldReason,
  ResolvedSurfaces,
} from './command';
export { COMMANDS } from './registry';
export {
  COMMAND_NAME_PATTERN,
  MAX_MCP_TOOL_NAME_LENGTH,
  MCP_HELP_TOOL,
  MCP_TOOL_PREFIX,
  mcpToolNameOf,
} from './mcp-tool-names';
export {
  SCOPES,
  TOKEN_KINDS,
  MEMBERSHIP_ROLES,
  ROLE_SCOPES,
  KIND_SCOPES,
  isScope,
  scopesBeyondKind,
  scopesBeyondRole,
} from './scopes';
export type { Scope, TokenKind, MembershipRole } from './scopes';
export { cursor, limit, page, pageInput, uuid, isoDateTime, TOKEN_SECRET_PATTERN } from './common.schema';
export { getTenant, renameTenant, tenantView } from './definitions/tenant.command';
export { listMembers, changeMemberRole, removeMember, memberView } from './definitions/member.command';
export {
  INVITATION_SECRET_PATTERN,
  INVITATION_STATUSES,
  INVITATION_DEFAULT_HOURS,
  INVITATION_MAX_HOURS,
  invitationSecret,
  invitationView,
  createInvitation,
  listInvitations,
  revokeInvitation,
  acceptInvitation,
} from './definitions/invitation.command';
export {
  listWorkspaces,
  getWorkspace,
  createWorkspace,
  renameWorkspace,
  setWorkspaceTrust,
  bumpWorkspaceGeneration,
  listWorkspaceMaintainers,
  addWorkspaceMaintainer,
  removeWorkspaceMaintainer,
  workspaceView,
  maintainerView,
} from './definitions/workspace.command';
export {
  listTokens,
  createToken,
  revokeToken,
  introspectToken,
  tokenView,
} from './definitions/token.command';
export {
  listAuditEvents,
  getAuditHead,
  verifyAuditChain,
  auditEventView,
  auditHeadView,
} from './definitions/audit.command';
export { whoAmI } from './definitions/me.command';
export {
  DEFINITION_TIERS,
  definitionTier,
  definitionSourceView,
  definitionSourceSummary,
  definitionVariableState,
  disableOverlayView,
  effectiveDefinitionEntry,
  listDefinitionSources,
  getDefinitionSource,
  putDefinitionSource,
  importDefinitionSource,
  deleteDefinitionSource,
  listDefinitionVariables,
  setDefinitionVariable,
  unsetDefinitionVariable,
  setDisableOverlay,
  clearDisableOverlay,
  getEffectiveDefinitions,
} from './definitions/definition-source.command';
export {
  getDefinitionSourceVersion,
  listDefinitionSourceVersions,
  previewDefinitionSource,
} from './definitions/definition-editor.command';
export {
  getHostPolicy,
  putHostPolicy,
  hostPolicyView,
  poolCeilingView,
  hostPolicyWithCeiling,
} from './definitions/host-policy.command';
export { activationView } from './definitions/activation.schema';
export {
  APPROVAL_REQUEST_TRIGGERS,
  approvalIdentityView,
  approvalRequestView,
  approvalView,
  projectionChangeView,
  destinationCheckView,
  stdioAuthorityView,
  listApprovalRequests,
  getApprovalRequest,
  openApprovalRequest,
  decideApprovalRequest,
  listApprovals,
  revokeApproval,
  checkAdmission,
} from './definitions/approval.command';
export { issueLease, leaseStateView, leaseView, releaseLease, renewLease } from './definitions/lease.command';
export {
  MAX_SNAPSHOT_DOCUMENT_BYTES,
  catalogSnapshotView,
  discoveryFailureRecordView,
  getWorkspaceCatalog,
  reportDiscoveryFailure,
  submitCatalogSnapshot,
  workspaceCatalogView,
} from './definitions/catalog.command';
export { catalogRefreshView, refreshCatalog } from './definitions/catalog-refresh.command';
export { probeView, submitProbe } from './definitions/probe.command';
export { getServerStatus, serverStatusView } from './definitions/server-status.command';
export { gatewayActivityView, getGatewayActivity } from './definitions/gateway-activity.command';
export {
  OAUTH_CREDENTIAL_STATES,
  chooseOAuthServiceCredential,
  completeOAuthSignIn,
  listOAuthCredentials,
  listOAuthServiceCredentials,
  oauthCredentialView,
  signOutOAuth,
  signOutOAuthServiceCredential,
  startOAuthSignIn,
} from './definitions/oauth.command';
export { REVOCATIONS_PAGE_DEFAULT, listRevocations } from './definitions/revocation.command';
