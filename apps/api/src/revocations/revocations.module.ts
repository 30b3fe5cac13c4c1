import { Module } from '@nestjs/common';
import { RevocationsLifecycle } from './revocations.lifecycle.js';

/** The revocation ledger's relay and the API's own holder (docs/decisions/0053-revocation-relay-and-holders.md). */
@Module({ providers: [RevocationsLifecycle] })
export class RevocationsModule {}
