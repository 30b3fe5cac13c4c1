import type { Database } from '@gatehouse/db';
import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import type { TenantPrincipal } from './principal';

/**
 * Ends the caller's own dashboard session (idempotent: a second sign-out finds nothing to revoke). A provider
 * of IdentityAuthModule.
 */
@Injectable()
export class SignOutUseCase {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute(principal: TenantPrincipal & { readonly sessionId: string }): Promise<void> {
    await this.db.withTenant(principal.tenantId, async (tx) => {
      const revoked = await tx.session.updateMany({
        where: { id: principal.sessionId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (revoked.count === 0) return;
      await appendAuditEvent(tx, {
        actor: { type: 'user', id: principal.userId, tokenKind: null },
        action: 'auth.logout',
        target: { type: 'session', id: principal.sessionId },
        outcome: 'success',
      });
    });
  }
}
