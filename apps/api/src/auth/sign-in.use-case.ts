import { randomUUID } from 'node:crypto';
import type { MembershipRole } from '@gatehouse/commands';
import { findLoginByEmail, type Database, type LoginLookup } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import { normalizeEmail } from './email-address';
import { SIGN_IN_DEPS } from './identity-tokens';
import type { LoginThrottle } from './login-throttle';
import { randomOpaqueSecret, sha256 } from './opaque-secret';
import type { PasswordHasher } from './password-hasher';
import { absoluteDeadline, slidingDeadline, type SessionPolicy } from './session-policy';

export interface SignInDeps {
  readonly db: Database;
  readonly hasher: PasswordHasher;
  readonly throttle: LoginThrottle;
  readonly sessionPolicy: SessionPolicy;
  /** Where a failed sign-in that could not be audited is reported. */
  readonly logger: Logger;
  readonly now?: () => Date;
}

export interface SignInInput {
  readonly email: string;
  readonly password: string;
  /** Tenant slug; needed only when the account belongs to several tenants. */
  readonly tenant?: string | undefined;
  /** The client's address (clientIpOf), for throttling and the audit trail. */
  readonly ip: string;
}

export interface StartedSession {
  readonly id: string;
  /** The cookie value. Only its sha256 is stored. */
  readonly secret: string;
  /** Returned to the caller once; only its sha256 is stored. */
  readonly csrfToken: string;
  readonly expiresAt: Date;
  readonly absoluteExpiresAt: Date;
}

export type SignInResult =
  | {
      readonly ok: true;
      readonly session: StartedSession;
      readonly user: { readonly id: string; readonly email: string; readonly displayName: string };
      readonly tenant: { readonly id: string; readonly slug: string; readonly name: string };
      readonly role: MembershipRole;
    }
  | { readonly ok: false; readonly reason: 'rate_limited'; readonly retryAfterSeconds: number }
  /** Unknown email, wrong password or disabled account: one answer, one timing. */
  | { readonly ok: false; readonly reason: 'invalid_credentials' }
  /** The password was right; these outcomes may name the caller's own tenants. */
  | { readonly ok: false; readonly reason: 'tenant_required'; readonly tenants: readonly string[] }
  | { readonly ok: false; readonly reason: 'tenant_not_member'; readonly tenants: readonly string[] }
  | { readonly ok: false; readonly reason: 'no_membership' };

/** Email + password → a dashboard session in one of the user's tenants. A provider of IdentityAuthModule. */
@Injectable()
export class SignInUseCase implements BeforeApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(@Inject(SIGN_IN_DEPS) private readonly deps: SignInDeps) {}

  /** Resolves once every failed sign-in answered so far is in the audit log (or its write failed and was logged). */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Before the database closes (InfrastructureLifecycle closes it on onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  private track(write: Promise<void>): void {
    const settled = write.catch((error: unknown) =>
      this.deps.logger.error({ err: error }, 'a failed sign-in could not be audited'),
    );
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  async execute(input: SignInInput): Promise<SignInResult> {
    const email = normalizeEmail(input.email);
    const verdict = await this.deps.throttle.attempt({ email, ip: input.ip });
    if (!verdict.allowed)
      return { ok: false, reason: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds };

    const login = await findLoginByEmail(this.deps.db, email);
    if (!(await this.passwordMatches(login, input.password)) || login === null || login.disabledAt !== null) {
      // Not awaited: the answer for a known account must take as long as for an unknown one (which writes
      // nothing), so the audit row is written after it; drain() waits for such writes (shutdown, tests).
      if (login !== null) this.track(this.recordFailure(login, input));
      return { ok: false, reason: 'invalid_credentials' };
    }
    await this.deps.throttle.succeeded({ email, ip: input.ip });

    const tenants = login.memberships.map((m) => m.tenantSlug);
    if (login.memberships.length === 0) return { ok: false, reason: 'no_membership' };
    const membership =
      input.tenant === undefined
        ? login.memberships.length === 1
          ? login.memberships[0]
          : undefined
        : login.memberships.find((m) => m.tenantSlug === input.tenant);
    if (membership === undefined) {
      return input.tenant === undefined
        ? { ok: false, reason: 'tenant_required', tenants }
        : { ok: false, reason: 'tenant_not_member', tenants };
    }
    return this.startSession(login.userId, membership, input.ip);
  }

  /**
   * A failed sign-in of a known account goes into the audit log of each tenant it was aimed at (the one named, or
   * every tenant of the account). Bounded by the throttle, which counted the attempt before the password was
   * checked: an attempt it refused never gets here, so one account's rows grow at most at its failure budget
   * (DEFAULT_LOGIN_THROTTLE_LIMITS: 50 per 15 minutes across addresses, 5 per address). An unknown email has no
   * tenant and writes nothing. The row carries the address and why, never the email typed or the password.
   */
  private async recordFailure(login: LoginLookup, input: SignInInput): Promise<void> {
    const tenants = login.memberships.filter(
      (m) => input.tenant === undefined || m.tenantSlug === input.tenant,
    );
    for (const membership of tenants) {
      await this.deps.db.withTenant(membership.tenantId, (tx) =>
        appendAuditEvent(tx, {
          actor: { type: 'user', id: login.userId, tokenKind: null },
          action: 'auth.login_failed',
          target: { type: 'user', id: login.userId },
          outcome: 'denied',
          data: { ip: input.ip, reason: login.disabledAt !== null ? 'account_disabled' : 'wrong_password' },
        }),
      );
    }
  }

  /** Always does one argon2 verification, also for an unknown email, so timing does not reveal accounts. */
  private async passwordMatches(login: LoginLookup | null, password: string): Promise<boolean> {
    if (login === null) return this.deps.hasher.verifyUnknown(password);
    return this.deps.hasher.verify(login.passwordHash, password);
  }

  private async startSession(
    userId: string,
    membership: LoginLookup['memberships'][number],
    ip: string,
  ): Promise<SignInResult> {
    const now = this.deps.now?.() ?? new Date();
    const session: StartedSession = {
      id: randomUUID(),
      secret: randomOpaqueSecret(),
      csrfToken: randomOpaqueSecret(),
      expiresAt: slidingDeadline(now, now, this.deps.sessionPolicy),
      absoluteExpiresAt: absoluteDeadline(now, this.deps.sessionPolicy),
    };
    const { user, tenant } = await this.deps.db.withTenant(membership.tenantId, async (tx) => {
      const user = await tx.user.findUniqueOrThrow({
        where: { id: userId },
        select: { id: true, email: true, displayName: true },
      });
      const tenant = await tx.tenant.findUniqueOrThrow({
        where: { id: membership.tenantId },
        select: { id: true, slug: true, name: true },
      });
      await tx.session.create({
        data: {
          id: session.id,
          tenantId: membership.tenantId,
          userId,
          secretHash: sha256(session.secret),
          csrfHash: sha256(session.csrfToken),
          createdAt: now,
          lastSeenAt: now,
          expiresAt: session.expiresAt,
        },
      });
      await appendAuditEvent(tx, {
        actor: { type: 'user', id: userId, tokenKind: null },
        action: 'auth.login',
        target: { type: 'session', id: session.id },
        outcome: 'success',
        data: { ip, role: membership.role },
      });
      return { user, tenant };
    });
    return { ok: true, session, user, tenant, role: membership.role };
  }
}
