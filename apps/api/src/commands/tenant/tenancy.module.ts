import { Module } from '@nestjs/common';
import { GetTenantUseCase } from './get-tenant.use-case';
import { RenameTenantUseCase } from './rename-tenant.use-case';
import { ListMembersUseCase } from '../members/list-members.use-case';
import { ChangeMemberRoleUseCase } from '../members/change-member-role.use-case';
import { RemoveMemberUseCase } from '../members/remove-member.use-case';
import { ListInvitationsUseCase } from '../invitations/list-invitations.use-case';
import { CreateInvitationUseCase } from '../invitations/create-invitation.use-case';
import { RevokeInvitationUseCase } from '../invitations/revoke-invitation.use-case';
import { AcceptInvitationUseCase } from '../invitations/accept-invitation.use-case';

/** Tenancy commands: the tenant, its members and their invitations. */
@Module({
  providers: [
    GetTenantUseCase,
    RenameTenantUseCase,
    ListMembersUseCase,
    ChangeMemberRoleUseCase,
    RemoveMemberUseCase,
    ListInvitationsUseCase,
    CreateInvitationUseCase,
    RevokeInvitationUseCase,
    AcceptInvitationUseCase,
  ],
})
export class TenancyModule {}
