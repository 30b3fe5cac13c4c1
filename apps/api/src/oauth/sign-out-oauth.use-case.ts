import { signOutOAuth, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { signOutCredential } from './credential-sign-out';
import { signedInUserOf } from './oauth-caller';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime';

type Input = CommandInput<typeof signOutOAuth>;
type Output = CommandOutput<typeof signOutOAuth>;

/**
 * `oauth.signOut`: the caller's own credential signed out (deleted first, every lease of this user revalidates,
 * then RFC 7009 at the issuer: credential-sign-out.ts). Another person's id reads as not found; a refresh that
 * rotated it between the read and the delete makes the caller retry (it is still theirs).
 */
@HandlesCommand(signOutOAuth)
export class SignOutOAuthUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
  ) {}

  async execute({ principal, input, signal }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const { id, revokedAtIssuer } = await signOutCredential(
      { db: this.db, runtime: this.runtime },
      principal,
      {
        subject: { kind: 'user', userId },
        credentialId: input.credentialId,
        leaseSubject: { userId },
        auditAction: 'oauth.signed_out',
        deleteVersion: 'read',
      },
      signal,
    );
    return { id, state: 'signed_out', revokedAtIssuer };
  }
}
