import type { CommandDefinition } from './command';
import {
  checkAdmission,
  decideApprovalRequest,
  getApprovalRequest,
  listApprovalRequests,
  listApprovals,
  openApprovalRequest,
  revokeApproval,
} from './definitions/approval.commands';
import { listAuditEvents, getAuditHead, verifyAuditChain } from './definitions/audit.commands';
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
} from './definitions/definition-source.commands';
import {
  getDefinitionSourceVersion,
  listDefinitionSourceVersions,
  previewDefinitionSource,
} from './definitions/definition-editor.commands';
import { getHostPolicy, putHostPolicy } from './definitions/host-policy.commands';
import { getWorkspaceCatalog, submitCatalogSnapshot } from './definitions/catalog.commands';
import { refreshCatalog } from './definitions/catalog-refresh.commands';
import { submitProbe } from './definitions/probe.commands';
import { getServerStatus } from './definitions/server-status.commands';
import { getGatewayActivity } from './definitions/gateway-activity.commands';
import { issueLease, releaseLease, renewLease } from './definitions/lease.commands';
import { whoAmI } from './definitions/me.commands';
import {
  chooseOAuthServiceCredential,
  completeOAuthSignIn,
  listOAuthCredentials,
  listOAuthServiceCredentials,
  signOutOAuth,
  signOutOAuthServiceCredential,
  startOAuthSignIn,
} from './definitions/oauth.commands';
import { listRevocations } from './definitions/revocation.commands';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  revokeInvitation,
} from './definitions/invitation.commands';
import { changeMemberRole, listMembers, removeMember } from './definitions/member.commands';
import { getTenant, renameTenant } from './definitions/tenant.commands';
import { createToken, introspectToken, listTokens, revokeToken } from './definitions/token.commands';
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
} from './definitions/workspace.commands';

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
