import { Module } from '@nestjs/common';
import { CatalogRefreshProducerModule } from '../catalog-refresh-queue/catalog-refresh-producer.module';
import { ListApprovalRequestsUseCase } from './list-approval-requests.use-case';
import { GetApprovalRequestUseCase } from './get-approval-request.use-case';
import { OpenApprovalRequestUseCase } from './open-approval-request.use-case';
import { DecideApprovalRequestUseCase } from './decide-approval-request.use-case';
import { ListApprovalsUseCase } from './list-approvals.use-case';
import { RevokeApprovalUseCase } from './revoke-approval.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/** Approval commands: requests (open, list, get, decide) and approvals (list, revoke). */
@Module({
  imports: [EffectiveViewModule, CatalogRefreshProducerModule],
  providers: [
    ListApprovalRequestsUseCase,
    GetApprovalRequestUseCase,
    OpenApprovalRequestUseCase,
    DecideApprovalRequestUseCase,
    ListApprovalsUseCase,
    RevokeApprovalUseCase,
  ],
})
export class ApprovalsModule {}
