import {
  checkAdmission,
  decideApprovalRequest,
  getApprovalRequest,
  listApprovalRequests,
  listApprovals,
  openApprovalRequest,
  revokeApproval,
  clearDisableOverlay,
  deleteDefinitionSource,
  getDefinitionSource,
  getEffectiveDefinitions,
  getHostPolicy,
  importDefinitionSource,
  listDefinitionSources,
  listDefinitionVariables,
  putDefinitionSource,
  putHostPolicy,
  setDefinitionVariable,
  setDisableOverlay,
  unsetDefinitionVariable,
  acceptInvitation,
  createInvitation,
  listInvitations,
  revokeInvitation,
  addWorkspaceMaintainer,
  bumpWorkspaceGeneration,
  changeMemberRole,
  createToken,
  createWorkspace,
  getAuditHead,
  getTenant,
  getWorkspace,
  listAuditEvents,
  listMembers,
  listTokens,
  listWorkspaceMaintainers,
  listWorkspaces,
  removeMember,
  removeWorkspaceMaintainer,
  renameTenant,
  renameWorkspace,
  revokeToken,
  setWorkspaceTrust,
  verifyAuditChain,
  whoAmI,
} from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { createDnsResolver, type Resolver } from '@gatehouse/egress';
import { SILENT_ADMISSION_LOG, type AdmissionLog } from '../admission/admission.log';
import { CheckAdmissionUseCase } from '../admission/check-admission.use-case';
import { DecideApprovalRequestUseCase } from '../approvals/decide-approval-request.use-case';
import { GetApprovalRequestUseCase } from '../approvals/get-approval-request.use-case';
import { ListApprovalRequestsUseCase } from '../approvals/list-approval-requests.use-case';
import { ListApprovalsUseCase } from '../approvals/list-approvals.use-case';
import { OpenApprovalRequestUseCase } from '../approvals/open-approval-request.use-case';
import { RevokeApprovalUseCase } from '../approvals/revoke-approval.use-case';
import { GetAuditHeadUseCase } from '../audit/get-audit-head.use-case';
import { ListAuditEventsUseCase } from '../audit/list-audit-events.use-case';
import { VerifyAuditChainUseCase } from '../audit/verify-audit-chain.use-case';
import type { WorkerPools } from '../auth/pool-config';
import { ClearDisableOverlayUseCase } from '../definitions/clear-disable-overlay.use-case';
import { DefinitionCipher } from '../definitions/definition-cipher';
import { DeleteDefinitionSourceUseCase } from '../definitions/delete-definition-source.use-case';
import { GetDefinitionSourceUseCase } from '../definitions/get-definition-source.use-case';
import { GetEffectiveDefinitionsUseCase } from '../definitions/get-effective-definitions.use-case';
import { ImportDefinitionSourceUseCase } from '../definitions/import-definition-source.use-case';
import { ListDefinitionSourcesUseCase } from '../definitions/list-definition-sources.use-case';
import { ListDefinitionVariablesUseCase } from '../definitions/list-definition-variables.use-case';
import { PutDefinitionSourceUseCase } from '../definitions/put-definition-source.use-case';
import { SetDefinitionVariableUseCase } from '../definitions/set-definition-variable.use-case';
import { SetDisableOverlayUseCase } from '../definitions/set-disable-overlay.use-case';
import { UnsetDefinitionVariableUseCase } from '../definitions/unset-definition-variable.use-case';
import { GetHostPolicyUseCase } from '../host-policy/get-host-policy.use-case';
import { PutHostPolicyUseCase } from '../host-policy/put-host-policy.use-case';
import type { CommandHandlers } from './command-handler';
import { AddWorkspaceMaintainerUseCase } from './maintainers/add-workspace-maintainer.use-case';
import { ListWorkspaceMaintainersUseCase } from './maintainers/list-workspace-maintainers.use-case';
import { RemoveWorkspaceMaintainerUseCase } from './maintainers/remove-workspace-maintainer.use-case';
import { GetMeUseCase } from './me/get-me.use-case';
import { AcceptInvitationUseCase } from './invitations/accept-invitation.use-case';
import { CreateInvitationUseCase } from './invitations/create-invitation.use-case';
import { ListInvitationsUseCase } from './invitations/list-invitations.use-case';
import { RevokeInvitationUseCase } from './invitations/revoke-invitation.use-case';
import { ChangeMemberRoleUseCase } from './members/change-member-role.use-case';
import { ListMembersUseCase } from './members/list-members.use-case';
import { RemoveMemberUseCase } from './members/remove-member.use-case';
import { GetTenantUseCase } from './tenant/get-tenant.use-case';
import { RenameTenantUseCase } from './tenant/rename-tenant.use-case';
import { CreateTokenUseCase } from './tokens/create-token.use-case';
import { ListTokensUseCase } from './tokens/list-tokens.use-case';
import { RevokeTokenUseCase } from './tokens/revoke-token.use-case';
import { BumpWorkspaceGenerationUseCase } from './workspaces/bump-workspace-generation.use-case';
import { CreateWorkspaceUseCase } from './workspaces/create-workspace.use-case';
import { GetWorkspaceUseCase } from './workspaces/get-workspace.use-case';
import { ListWorkspacesUseCase } from './workspaces/list-workspaces.use-case';
import { RenameWorkspaceUseCase } from './workspaces/rename-workspace.use-case';
import { SetWorkspaceTrustUseCase } from './workspaces/set-workspace-trust.use-case';

export interface CommandHandlerDeps {
  readonly database: Database;
  /** The operator's WORKER_POOLS (identity config): which pools a worker token may name. */
  readonly workerPools: WorkerPools;
  /**
   * Seals definition documents and variable values (createDefinitionCipher: the operator's key ring). Without it,
   * the definition commands fail as a wiring bug when they would encrypt or decrypt (building stays I/O-free).
   */
  readonly definitionCipher?: DefinitionCipher;
  /** DNS for URL admission (admission.check); by default the bounded c-ares resolver, as in production. */
  readonly egressResolver?: Resolver;
  /** The operator's log of refused destinations; createApiApp wires the API logger, tests may leave it out. */
  readonly admissionLog?: AdmissionLog;
}

/**
 * Every command's use case, keyed by command name. Keys come from the declarations themselves, so a renamed
 * command cannot silently lose its handler; registerCommandRoutes/registerGraphQL refuse to start when a
 * command in COMMANDS has none.
 */
export function createCommandHandlers(deps: CommandHandlerDeps): CommandHandlers {
  const db = deps.database;
  const cipher = deps.definitionCipher ?? new DefinitionCipher(undefined);
  return Object.freeze({
    [whoAmI.name]: new GetMeUseCase(db),
    [getTenant.name]: new GetTenantUseCase(db),
    [renameTenant.name]: new RenameTenantUseCase(db),
    [listMembers.name]: new ListMembersUseCase(db),
    [listInvitations.name]: new ListInvitationsUseCase(db),
    [createInvitation.name]: new CreateInvitationUseCase(db),
    [revokeInvitation.name]: new RevokeInvitationUseCase(db),
    [acceptInvitation.name]: new AcceptInvitationUseCase(db),
    [changeMemberRole.name]: new ChangeMemberRoleUseCase(db),
    [removeMember.name]: new RemoveMemberUseCase(db),
    [listWorkspaces.name]: new ListWorkspacesUseCase(db),
    [getWorkspace.name]: new GetWorkspaceUseCase(db),
    [createWorkspace.name]: new CreateWorkspaceUseCase(db),
    [renameWorkspace.name]: new RenameWorkspaceUseCase(db),
    [setWorkspaceTrust.name]: new SetWorkspaceTrustUseCase(db, cipher),
    [bumpWorkspaceGeneration.name]: new BumpWorkspaceGenerationUseCase(db, cipher),
    [listWorkspaceMaintainers.name]: new ListWorkspaceMaintainersUseCase(db),
    [addWorkspaceMaintainer.name]: new AddWorkspaceMaintainerUseCase(db),
    [removeWorkspaceMaintainer.name]: new RemoveWorkspaceMaintainerUseCase(db),
    [listTokens.name]: new ListTokensUseCase(db),
    [createToken.name]: new CreateTokenUseCase(db, deps.workerPools),
    [revokeToken.name]: new RevokeTokenUseCase(db),
    [listAuditEvents.name]: new ListAuditEventsUseCase(db),
    [getAuditHead.name]: new GetAuditHeadUseCase(db),
    [verifyAuditChain.name]: new VerifyAuditChainUseCase(db),
    [listDefinitionSources.name]: new ListDefinitionSourcesUseCase(db),
    [getDefinitionSource.name]: new GetDefinitionSourceUseCase(db, cipher),
    [putDefinitionSource.name]: new PutDefinitionSourceUseCase(db, cipher),
    [importDefinitionSource.name]: new ImportDefinitionSourceUseCase(db, cipher),
    [deleteDefinitionSource.name]: new DeleteDefinitionSourceUseCase(db, cipher),
    [listDefinitionVariables.name]: new ListDefinitionVariablesUseCase(db),
    [setDefinitionVariable.name]: new SetDefinitionVariableUseCase(db, cipher),
    [unsetDefinitionVariable.name]: new UnsetDefinitionVariableUseCase(db, cipher),
    [setDisableOverlay.name]: new SetDisableOverlayUseCase(db, cipher),
    [clearDisableOverlay.name]: new ClearDisableOverlayUseCase(db, cipher),
    [getEffectiveDefinitions.name]: new GetEffectiveDefinitionsUseCase(db, cipher),
    [getHostPolicy.name]: new GetHostPolicyUseCase(db, deps.workerPools),
    [putHostPolicy.name]: new PutHostPolicyUseCase(db, deps.workerPools),
    [listApprovalRequests.name]: new ListApprovalRequestsUseCase(db),
    [getApprovalRequest.name]: new GetApprovalRequestUseCase(db),
    [openApprovalRequest.name]: new OpenApprovalRequestUseCase(db, cipher),
    [decideApprovalRequest.name]: new DecideApprovalRequestUseCase(db, cipher),
    [listApprovals.name]: new ListApprovalsUseCase(db),
    [revokeApproval.name]: new RevokeApprovalUseCase(db),
    [checkAdmission.name]: new CheckAdmissionUseCase(db, cipher, deps.workerPools, {
      resolver: deps.egressResolver ?? createDnsResolver(),
      log: deps.admissionLog ?? SILENT_ADMISSION_LOG,
    }),
  });
}
