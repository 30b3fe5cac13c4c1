import type { CommandDefinition } from './command';
import {
  checkAdmission,
  decideApprovalRequest,
  getApprovalRequest,
  listApprovalRequests,
  listApprovals,
  openApprovalRequest,
  revokeApproval,
} from './definitions/approval.command';
import { listAuditEvents, getAuditHead, verifyAuditChain } from './definitions/audit.command';
import {
  clearDisableOverlay,
  deleteDefinitionSource,
  getDefinitionSource,
  getEffectiveDefinitions,
  importDefinitionSource,
  listDefinitionSources,
  listDefinitionVariables,
  putDefinitionSource,
  setDefinitionVariable,
  setDisableOverlay,
  unsetDefinitionVariable,
} from './definitions/definition-source.command';
import {
  getDefinitionSourceVersion,
  listDefinitionSourceVersions,
  previewDefinitionSource,
} from './definitions/definition-editor.command';
import { getHostPolicy, putHostPolicy } from './definitions/host-policy.command';
import {
  getWorkspaceCatalog,
  reportDiscoveryFailure,
  submitCatalogSnapshot,
} from './definitions/catalog.command';
import { refreshCatalog } from './definitions/catalog-refresh.command';
import { submitProbe } from './definitions/probe.command';
import { getServerStatus } from './definitions/server-status.command';
import { getGatewayActivity } from './definitions/gateway-activity.command';
import { issueLease, releaseLease, renewLease } from './definitions/lease.command';
import { whoAmI } from './definitions/me.command';
import {
  chooseOAuthServiceCredential,
  completeOAuthSignIn,
  listOAuthCredentials,
  listOAuthServiceCredentials,
  signOutOAuth,
  signOutOAuthServiceCredential,
  startOAuthSignIn,
} from './definitions/oauth.command';
import { listRevocations } from './definitions/revocation.command';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  revokeInvitation,
} from './definitions/invitation.command';
import { changeMemberRole, listMembers, removeMember } from './definitions/member.command';
import { getTenant, renameTenant } from './definitions/tenant.command';
import { createToken, introspectToken, listTokens, revokeToken } from './definitions/token.command';
import {
  addWorkspaceMaintainer,
  bumpWorkspaceGeneration,
  createWorkspace,
  getWorkspace,
  listWorkspaceMaintainers,
  listWorkspaces,
  removeWorkspaceMaintainer,
  renameWorkspace,
  setWorkspaceTrust,
} from './definitions/workspace.command';

/** Every admin command. REST, GraphQL and admin-over-MCP are generated from this list and nothing else. */
export const COMMANDS: readonly CommandDefinition[] = Object.freeze([
  whoAmI,
  getTenant,
  renameTenant,
  listMembers,
  changeMemberRole,
  removeMember,
  listInvitations,
  createInvitation,
  revokeInvitation,
  acceptInvitation,
  listWorkspaces,
  getWorkspace,
  createWorkspace,
  renameWorkspace,
  setWorkspaceTrust,
  bumpWorkspaceGeneration,
  listWorkspaceMaintainers,
  addWorkspaceMaintainer,
  removeWorkspaceMaintainer,
  listTokens,
  createToken,
  revokeToken,
  introspectToken,
  listAuditEvents,
  getAuditHead,
  verifyAuditChain,
  listDefinitionSources,
  getDefinitionSource,
  putDefinitionSource,
  importDefinitionSource,
  previewDefinitionSource,
  listDefinitionSourceVersions,
  getDefinitionSourceVersion,
  deleteDefinitionSource,
  listDefinitionVariables,
  setDefinitionVariable,
  unsetDefinitionVariable,
  setDisableOverlay,
  clearDisableOverlay,
  getEffectiveDefinitions,
  getHostPolicy,
  putHostPolicy,
  listApprovalRequests,
  getApprovalRequest,
  openApprovalRequest,
  decideApprovalRequest,
  listApprovals,
  revokeApproval,
  checkAdmission,
  issueLease,
  renewLease,
  releaseLease,
  submitCatalogSnapshot,
  reportDiscoveryFailure,
  getWorkspaceCatalog,
  refreshCatalog,
  submitProbe,
  getServerStatus,
  getGatewayActivity,
  startOAuthSignIn,
  completeOAuthSignIn,
  listOAuthCredentials,
  signOutOAuth,
  chooseOAuthServiceCredential,
  listOAuthServiceCredentials,
  signOutOAuthServiceCredential,
  listRevocations,
] as CommandDefinition[]);
