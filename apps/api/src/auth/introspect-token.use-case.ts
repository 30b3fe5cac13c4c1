import { introspectToken, type CommandInput, type CommandOutput, type Scope } from '@gatehouse/commands';
import { findTokenBySecretHash, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { looksLikeApiToken } from './api-token-format';
import { sha256 } from './opaque-secret';
import type { Principal, TenantPrincipal } from './principal';
import { principalOfTokenLookup } from './resolve-principal';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { findVisibleWorkspace } from './workspace-visibility';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

type Input = CommandInput<typeof introspectToken>;
type Output = CommandOutput<typeof introspectToken>;

/** The one answer for every token the gateway may not serve, whatever the reason. */
const INACTIVE: Output = Object.freeze({
  active: false,
  tokenId: null,
  tenantId: null,
  kind: null,
  userId: null,
  workspaceIds: [],
  scopes: [],
  expiresAt: null,
});

/**
 * The scope that opens the gateway to each caller kind: an agent token must hold `gateway:use`; a user token acts
 * as its person, whose role never holds `gateway:use`, so it is `catalog:read` (what the gateway shows is that
 * person's catalog).
 */
const GATEWAY_SCOPE: Readonly<Record<'user' | 'agent', Scope>> = {
  user: 'catalog:read',
  agent: 'gateway:use',
};

function gatewayCaller(principal: Principal | null): (TenantPrincipal & { via: 'user' | 'agent' }) | null {
  if (principal === null || principal.type !== 'tenant') return null;
  const via = principal.via;
  if (via !== 'user' && via !== 'agent') return null;
  if (!principal.scopes.includes(GATEWAY_SCOPE[via])) return null;
  return { ...principal, via };
}

/**
 * `tokens.introspect` (decision 0079): the gateway asks whether a caller's bearer token may use the gateway in one
 * workspace. Same rules as authentication itself (principalOfTokenLookup: revoked, expired, disabled user,
 * removed member, the user's current role), one statement for the token and one for the workspace, read in the
 * token's own tenant (RLS), so a workspace of another tenant is simply not there: 404, like a missing one.
 */
@HandlesCommand(introspectToken)
export class IntrospectTokenUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    // A string that is not token-shaped is never looked up.
    if (!looksLikeApiToken(input.token)) return INACTIVE;
    const lookup = await findTokenBySecretHash(this.db, sha256(input.token));
    const caller = gatewayCaller(principalOfTokenLookup(lookup, this.clock()));
    if (caller === null || lookup === null || caller.tokenId === null) return INACTIVE;
    await this.db.withTenant(caller.tenantId, (tx) => findVisibleWorkspace(tx, caller, input.workspaceId));
    return {
      active: true,
      tokenId: caller.tokenId,
      tenantId: caller.tenantId,
      kind: caller.via,
      userId: caller.userId,
      workspaceIds: [...caller.workspaceIds],
      scopes: [...caller.scopes],
      expiresAt: lookup.expiresAt?.toISOString() ?? null,
    };
  }
}
