import { startOAuthSignIn, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import {
  discoverAuthorization,
  resolveClientRegistration,
  startSignIn,
  type RegisteredClient,
} from '@gatehouse/oauth';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { EffectiveView } from '../effective-view/effective-view.service';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { oauthAuditEvent } from './oauth-audit';
import { signInBindingOf, signedInUserOf } from './oauth-caller';
import { oauthClientUnavailable, oauthDiscoveryRefused, OAuthProblemError } from './oauth-problems';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime';
import { PostgresClientRegistrationStore } from '../oauth-credentials/postgres-client-registration.store';
import { resolveOAuthServerTarget, type OAuthServerTarget } from './oauth-server-target';

type Input = CommandInput<typeof startOAuthSignIn>;
type Output = CommandOutput<typeof startOAuthSignIn>;

/**
 * `oauth.signIn.start`: the server as the caller's view resolves it, checked discovery from its URL through
 * the egress fetch, a client for that issuer (pre-registered, the definition's public client id, or dynamic,
 * remembered per issuer), then an authorization URL whose state is bound to this session, user and tenant.
 */
@HandlesCommand(startOAuthSignIn)
export class StartOAuthSignInUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input, signal }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const target = await resolveOAuthServerTarget(this.db, this.views, {
      tenantId: principal.tenantId,
      workspaceId: input.workspaceId,
      userId,
      serverName: input.serverName,
    });
    try {
      const started = await this.start(principal, userId, target, signal);
      await this.audit(principal, target, 'oauth.sign_in_started', { issuer: started.issuer });
      return started;
    } catch (error) {
      if (error instanceof OAuthProblemError)
        await this.audit(principal, target, 'oauth.sign_in_refused', {
          code: error.code,
          reason: error.reason,
        });
      throw error;
    }
  }

  private async start(
    principal: TenantPrincipal,
    userId: string,
    target: OAuthServerTarget,
    signal: AbortSignal | undefined,
  ): Promise<Output> {
    const egress = this.runtime.egressFor(principal.tenantSlug, target.tenantPolicy);
    if (egress === null) throw oauthDiscoveryRefused('no_pool_open');
    const { fetch } = egress;
    try {
      const discovery = await discoverAuthorization(
        { serverUrl: target.serverUrl },
        {
          fetch,
          allowInsecureLoopback: egress.allowInsecureLoopback,
          ...(signal ? { signal } : {}),
        },
      );
      if (!discovery.ok) throw oauthDiscoveryRefused(discovery.reason);
      const { discovered } = discovery;
      const store = new PostgresClientRegistrationStore(this.db, this.runtime.cipher, principal.tenantId);
      let client: RegisteredClient;
      const declared = target.oauth.clientId;
      const preRegistered = await store.preRegistered(discovered.issuer);
      if (preRegistered === null && declared !== null) {
        // The definition's public client id (never a secret): a pre-registered public client at this issuer.
        client = {
          issuer: discovered.issuer,
          clientId: declared,
          clientSecret: null,
          tokenEndpointAuthMethod: 'none',
          kind: 'pre_registered',
        };
      } else {
        const registered = await resolveClientRegistration(
          discovered,
          { clientName: 'Gatehouse', redirectUris: [this.runtime.redirectUri] },
          { fetch, store, ...(signal ? { signal } : {}) },
        );
        if (!registered.ok) throw oauthClientUnavailable(registered.reason);
        client = registered.client;
      }
      const started = await startSignIn(
        {
          discovered,
          client,
          binding: signInBindingOf(principal, userId),
          subject: { kind: 'user', userId },
          serverIdentity: target.securityIdentity,
          redirectUri: this.runtime.redirectUri,
          scope: target.oauth.scopes.join(' '),
        },
        { stateStore: this.runtime.stateStore, now: () => this.clock().getTime() },
      );
      if (!started.ok) throw oauthClientUnavailable(started.reason);
      return {
        authorizationUrl: started.authorizationUrl,
        issuer: discovered.issuer,
        expiresAt: new Date(started.expiresAt).toISOString(),
      };
    } finally {
      await fetch.close();
    }
  }

  private async audit(
    principal: TenantPrincipal,
    target: OAuthServerTarget,
    action: 'oauth.sign_in_started' | 'oauth.sign_in_refused',
    extra: Readonly<Record<string, string>>,
  ): Promise<void> {
    await this.db.withTenant(principal.tenantId, (tx) =>
      appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), action, null, {
          workspaceId: target.workspaceId,
          serverName: target.serverName,
          securityIdentity: target.securityIdentity,
          ...extra,
        }),
      ),
    );
  }
}
