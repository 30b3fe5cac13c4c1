import { Module } from '@nestjs/common';
import { GetTenantUseCase } from './get-tenant.use-case';
import { RenameTenantUseCase } from './rename-tenant.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';
import { ListInvitationsUseCase } from './list-invitations.use-case';
import { CreateInvitationUseCase } from './create-invitation.use-case';
import { RevokeInvitationUseCase } from './revoke-invitation.use-case';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';

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
