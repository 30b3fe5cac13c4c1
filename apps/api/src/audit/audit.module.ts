import { Module } from '@nestjs/common';
import { ListAuditEventsUseCase } from './list-audit-events.use-case';
import { GetAuditHeadUseCase } from './get-audit-head.use-case';
import { VerifyAuditChainUseCase } from './verify-audit-chain.use-case';

/** Audit commands: the events, the head and the chain's verification. */
@Module({
  providers: [
    ListAuditEventsUseCase,
    GetAuditHeadUseCase,
    VerifyAuditChainUseCase,
  ],
})
export class AuditModule {}
