import { Module } from '@nestjs/common';
import { ApprovalExpiryLifecycle } from './approval-expiry-lifecycle.js';
import { RevocationsLifecycle } from './revocations-lifecycle.js';

/**
 * The revocation ledger's relay and the API's own holder (docs/decisions/0053-revocation-relay-and-holders.md),
 * and the sweep that writes the events of approvals expiring (0072).
 */
@Module({ providers: [RevocationsLifecycle, ApprovalExpiryLifecycle] })
export class RevocationsModule {}
