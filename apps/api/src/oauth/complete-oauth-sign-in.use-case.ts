import { completeOAuthSignIn, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { findOAuthCredential, type Database } from '@gatehouse/db';
import { completeSignIn, type CompleteSignInRefusal, type SignedIn } from '@gatehouse/oauth';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { oauthAuditEvent } from './oauth-audit';
import { signInBindingOf, signedInUserOf } from './oauth-caller';
import { registeredClientFor, tenantHostPolicyOf } from '../oauth-credentials/oauth-client-lookup';
import { oauthCredentialViewOf } from './oauth-credential-view';
import { signInRefused } from './oauth-problems';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime';
import { PostgresTokenStore } from '../oauth-credentials/postgres-token.store';

type Input = CommandInput<typeof completeOAuthSignIn>;
type Output = CommandOutput<typeof completeOAuthSignIn>;

// No sign-in of this caller waits for this redirect: never issued, used already, expired, or another
// person's, session's or tenant's. One answer for all of them (404), so a redirect tells nobody whether a
// sign-in of someone else exists; the audit row keeps the reason word.
const NO_SIGN_IN_OF_YOURS: ReadonlySet<CompleteSignInRefusal> = new Set<CompleteSignInRefusal>([
  'state_missing',
  'state_unknown',
  'state_expired',
  'state_binding_mismatch',
]);

/**
 * `oauth.signIn.complete` (and the API's callback route): the redirect accepted once by libs/oauth
 * (state taken first, binding, redirect URI, RFC 9207 `iss`, then the code redeemed at the recorded token
 * endpoint through the pinned fetch), then the tokens stored sealed for the signed-in user. Audited without
 * any token, code or state.
 */
@HandlesCommand(completeOAuthSignIn)
export class CompleteOAuthSignInUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input, signal }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const egress = this.runtime.egressFor(
      principal.tenantSlug,
      await tenantHostPolicyOf(this.db, principal.tenantId),
    );
    if (egress === null) throw await this.refused(principal, 'no_pool_open');
    const { fetch } = egress;
    let signedIn: SignedIn;
    try {
      const completed = await completeSignIn(
        { redirect: input.redirectUrl, binding: signInBindingOf(principal, userId) },
        {
          fetch,
          stateStore: this.runtime.stateStore,
          clientFor: (issuer, clientId) =>
            registeredClientFor(this.db, this.runtime.cipher, principal.tenantId, issuer, clientId),
          now: () => this.clock().getTime(),
          ...(signal ? { signal } : {}),
        },
      );
      if (!completed.ok) throw await this.refused(principal, completed.reason);
      signedIn = completed.signedIn;
    } finally {
      await fetch.close();
    }
    await this.store(signedIn);
    const row = await this.db.withTenant(principal.tenantId, (tx) => findOAuthCredential(tx, signedIn.key));
    if (row === null) throw new Error('oauth: the credential just stored is gone');
    await this.db.withTenant(principal.tenantId, (tx) =>
      appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), 'oauth.signed_in', row.id, {
          issuer: signedIn.key.issuer,
          securityIdentity: signedIn.key.serverIdentity,
        }),
      ),
    );
    return oauthCredentialViewOf(row);
  }

  /** A new sign-in replaces what the key holds (a compare-and-swap on what was read, retried on a race). */
  private async store(signedIn: SignedIn): Promise<void> {
    const store = new PostgresTokenStore(this.db, this.runtime.cipher);
    const record = {
      status: 'active',
      tokens: signedIn.tokens,
      tokenEndpoint: signedIn.tokenEndpoint,
      revocationEndpoint: signedIn.revocationEndpoint,
      clientId: signedIn.clientId,
      refreshFencingToken: null,
    } as const;
    let expected = (await store.get(signedIn.key))?.version ?? null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const written = await store.set(signedIn.key, record, expected);
      if (written.ok) return;
      expected = written.current?.version ?? null;
    }
    throw new Error('oauth: the credential kept changing while it was stored');
  }

  private async refused(principal: TenantPrincipal, reason: string): Promise<Error> {
    const unknown = NO_SIGN_IN_OF_YOURS.has(reason as CompleteSignInRefusal);
    await this.db.withTenant(principal.tenantId, (tx) =>
      appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), 'oauth.sign_in_refused', null, {
          code: unknown ? 'not_found' : 'sign_in_refused',
          reason,
        }),
      ),
    );
    return unknown ? notFound('sign-in') : signInRefused(reason);
  }
}
