import { Module } from '@nestjs/common';
import { ListRevocationsUseCase } from './list-revocations.use-case';

/** The revocation ledger's catch-up read (`revocations.list`); the relay and holders are RevocationsModule. */
@Module({ providers: [ListRevocationsUseCase] })
export class RevocationReadsModule {}
