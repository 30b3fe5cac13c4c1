import { randomUUID } from 'node:crypto';
import { chooseOAuthServiceCredential, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import {
  deleteOAuthCredential,
  findOAuthCredential,
  insertOAuthCredential,
  listOAuthCredentialsOfSubject,
  type Database,
  type OAuthCredentialIdentity,
  type OAuthCredentialRow,
  type TenantTx,
} from '@gatehouse/db';
import { materializedDefinitionOf } from '@gatehouse/definitions';
import { canonicalResourceUri } from '@gatehouse/oauth';
import { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { EffectiveView } from '../effective-view/effective-view.service';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { appendLeaseChange } from '../revocations/lease-change-event';
import { auditActorOf } from '../auth/audit-actor';
import { notFound } from '../shared/command-problems';
import { oauthAuditEvent } from './oauth-audit';
import { signedInUserOf } from './oauth-caller';
import type { OAuthCipher } from '../oauth-credentials/oauth-cipher';
import { oauthCredentialViewOf } from './oauth-credential-view';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime';

type Input = CommandInput<typeof chooseOAuthServiceCredential>;
type Output = CommandOutput<typeof chooseOAuthServiceCredential>;

/**
 * `oauth.serviceCredential.choose` (owners and admins: `workspaces:write`; people only; never over admin MCP):
 * one of the caller's own sign-ins becomes the workspace's service credential for its server. Allowed only when
 * the workspace's own view (managed, project and plugin tiers: no person's entries) lists a server of exactly
 * that security identity and canonical URL whose definition allows shared use.
 *
 * The credential MOVES (decision 0082): its tokens are sealed again for a new row keyed by the workspace subject
 * (same security identity, canonical URL and issuer), and the caller's row is deleted, in one transaction. A copy
 * would leave two holders of one rotating refresh token, and the first refresh of either would sign the other
 * out. A service credential the workspace had for that key is replaced. Leases that carried either are ended
 * through the ledger (`oauth_signed_out` for the caller and for the workspace). Audited without any token.
 */
@HandlesCommand(chooseOAuthServiceCredential)
export class ChooseServiceCredentialUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const row = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await tx.workspace.findUnique({ where: { id: input.workspaceId } });
      if (workspace === null) throw notFound('workspace');
      const own = await listOAuthCredentialsOfSubject(tx, { kind: 'user', userId });
      const chosen = own.find((candidate) => candidate.id === input.credentialId);
      if (chosen === undefined) throw notFound('credential');
      // A refresh of it may be on the wire: moving it now could send its refresh token a second time.
      if (chosen.status === 'refresh_in_flight') throw refreshInFlight();
      const serverName = await this.sharedServerOf(tx, principal.tenantId, workspace.id, chosen);
      if (serverName === null) throw sharedUseNotAllowed();

      const identity: OAuthCredentialIdentity = {
        ...chosen.identity,
        subject: { kind: 'workspace', workspaceId: workspace.id },
      };
      const replaced = await deleteOAuthCredential(tx, identity);
      // Deleted at the version read: a refresh that rotated it since makes the caller try again.
      if ((await deleteOAuthCredential(tx, chosen.identity, chosen.version)) === null)
        throw notFound('credential');
      const id = randomUUID();
      const version = await insertOAuthCredential(tx, {
        id,
        tenantId: principal.tenantId,
        identity,
        fields: resealed(this.runtime.cipher, chosen, { id, tenantId: principal.tenantId }),
      });
      if (version === null) throw new Error('oauth: a service credential appeared inside this transaction');
      await appendLeaseChange(tx, 'oauth_signed_out', { userId });
      await appendLeaseChange(tx, 'oauth_signed_out', { workspaceId: workspace.id });
      const moved = await findOAuthCredential(tx, identity);
      if (moved === null) throw new Error('oauth: the service credential just written is gone');
      await appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), 'oauth.service_credential_chosen', moved.id, {
          workspaceId: workspace.id,
          serverName,
          movedFrom: chosen.id,
          replaced: replaced?.id ?? null,
          issuer: identity.issuer,
          securityIdentity: identity.serverIdentity,
        }),
      );
      return moved;
    });
    return oauthCredentialViewOf(row);
  }

  /** The server of the workspace's own view this credential is for, when its definition allows shared use. */
  private async sharedServerOf(
    tx: TenantTx,
    tenantId: string,
    workspaceId: string,
    credential: OAuthCredentialRow,
  ): Promise<string | null> {
    const resolved = await this.views.resolved(tx, { tenantId, workspaceId, userId: null });
    for (const entry of resolved.entries) {
      if (entry.status !== 'resolved' || entry.identity.key !== credential.identity.serverIdentity) continue;
      const transport = materializedDefinitionOf(entry)?.transport;
      if (transport?.kind !== 'http' || transport.oauth === null || !transport.oauth.allowSharedCredential)
        continue;
      if (canonicalResourceUri(transport.url.value) === credential.identity.resource) return entry.name;
    }
    return null;
  }
}

/** The row's tokens opened and sealed again for the new row (the AAD binds a ciphertext to its row id). */
function resealed(
  cipher: OAuthCipher,
  from: OAuthCredentialRow,
  to: { readonly id: string; readonly tenantId: string },
) {
  const reseal = (column: 'accessToken' | 'refreshToken', sealed: Uint8Array | null) => {
    if (sealed === null) return null;
    const opened = cipher.open(column, from, sealed);
    return opened === undefined ? null : cipher.seal(column, to, opened);
  };
  const accessTokenCt = reseal('accessToken', from.accessTokenCt);
  const refreshTokenCt = reseal('refreshToken', from.refreshTokenCt);
  const usable = from.status !== 'needs_sign_in' && accessTokenCt !== null;
  return {
    // A credential whose tokens do not open moves as one that needs sign-in, never with a guessed token.
    status: usable ? ('active' as const) : ('needs_sign_in' as const),
    accessTokenCt: usable ? accessTokenCt : null,
    refreshTokenCt: usable ? refreshTokenCt : null,
    expiresAt: usable ? from.expiresAt : null,
    scope: from.scope,
    tokenEndpoint: from.tokenEndpoint,
    revocationEndpoint: from.revocationEndpoint,
    clientId: from.clientId,
    refreshFencingToken: null,
  };
}

function sharedUseNotAllowed(): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'shared_use_not_allowed',
    title: 'Shared use not allowed',
    detail:
      "No server of this workspace's own view with this credential's identity and URL allows a service credential.",
  });
}

function refreshInFlight(): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'conflict',
    title: 'Refresh in progress',
    detail: 'This credential is being refreshed; choose it again in a moment.',
  });
}
