import {
  KIND_SCOPES,
  ROLE_SCOPES,
  TOKEN_KINDS,
  createToken,
  isScope,
  scopesBeyondKind,
  type Scope,
  type TokenKind,
} from '@gatehouse/commands';
import { findTenantIdBySlug, insertGatewayToken, isUuid } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { mintTokenSecret } from '../auth/api-token-format';
import { existingWorkspaceIds, mintApiToken, tokenExpiry } from '../auth/mint-api-token';
import {
  decideTokenCreation,
  type TokenCreationRefusal,
  type TokenCreator,
} from '../auth/token-creation.policy';
import { normalizeEmail } from '../auth/email-address';
import { list, parseCommandArgs, required } from './cli-args';
import { requireMigrationDatabaseUrl } from './cli-config';
import { OPERATOR_ACTOR, type CliContext } from './cli-context';
import { CliError, usageError } from './cli-io';

export const CREATE_TOKEN_USAGE =
  'gatehouse admin create-token --kind user|agent|worker|gateway --name NAME --scopes a,b [--tenant SLUG] [--user EMAIL] [--workspaces id,id] [--pool POOL] [--expires-days N (gateway: 90 unless given)] [--json]';

/** Gateway tokens are cross-tenant credentials: one forgotten in a config file must not live forever. */
export const GATEWAY_TOKEN_DEFAULT_EXPIRY_DAYS = 90;

interface TokenRequest {
  readonly kind: TokenKind;
  readonly name: string;
  readonly scopes: Scope[];
  readonly workspaceIds: string[];
  readonly pool: string | null;
  readonly expiresAt: Date | null;
  readonly json: boolean;
}

/** The only way to create a gateway token; also mints tenant tokens for operators (audited as the operator). */
export async function createTokenCommand(args: readonly string[], ctx: CliContext): Promise<void> {
  const values = parseCommandArgs(args, {
    kind: { type: 'string' },
    name: { type: 'string' },
    tenant: { type: 'string' },
    user: { type: 'string' },
    scopes: { type: 'string' },
    workspaces: { type: 'string' },
    pool: { type: 'string' },
    'expires-days': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const kind = required(values.kind, 'kind');
  if (!(TOKEN_KINDS as readonly string[]).includes(kind))
    throw usageError('--kind must be user, agent, worker or gateway');
  const request: TokenRequest = {
    kind: kind as TokenKind,
    name: tokenName(required(values.name, 'name')),
    scopes: scopeList(required(values.scopes, 'scopes')),
    workspaceIds: workspaceList(values.workspaces),
    pool: values.pool ?? null,
    expiresAt: tokenExpiry(
      expiresInDays(values['expires-days']) ??
        (kind === 'gateway' ? GATEWAY_TOKEN_DEFAULT_EXPIRY_DAYS : undefined),
    ),
    json: values.json === true,
  };
  if (request.pool !== null && !createToken.input.shape.pool.safeParse(request.pool).success) {
    throw usageError('--pool must be lowercase letters, digits and dashes');
  }

  if (request.kind === 'gateway') {
    if (values.tenant !== undefined || values.user !== undefined || request.workspaceIds.length > 0) {
      throw usageError('gateway tokens belong to no tenant: --tenant, --user and --workspaces do not apply');
    }
    return createGatewayToken(request, ctx);
  }
  const tenantSlug = required(values.tenant, 'tenant');
  if (request.kind === 'user')
    return createTenantToken(request, tenantSlug, required(values.user, 'user'), ctx);
  if (values.user !== undefined) throw usageError('--user applies to user tokens only');
  return createTenantToken(request, tenantSlug, null, ctx);
}

async function createGatewayToken(request: TokenRequest, ctx: CliContext): Promise<void> {
  const beyond = scopesBeyondKind('gateway', request.scopes)[0];
  if (beyond !== undefined) throw new CliError(`a gateway token may never hold the scope ${beyond}`);
  if (request.pool !== null && !Object.hasOwn(ctx.config.workerPools, request.pool)) {
    throw new CliError(`no pool ${request.pool} is declared in WORKER_POOLS`);
  }
  const minted = mintTokenSecret('gateway');
  const id = await insertGatewayToken({
    ownerUrl: requireMigrationDatabaseUrl(ctx.config),
    name: request.name,
    scopes: request.scopes,
    pool: request.pool,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: request.expiresAt,
  });
  printToken(
    ctx,
    request,
    { tokenId: id, tenant: null, prefix: minted.prefix, scopes: request.scopes },
    minted.secret,
  );
}

async function createTenantToken(
  request: TokenRequest,
  tenantSlug: string,
  userEmail: string | null,
  ctx: CliContext,
): Promise<void> {
  const db = ctx.database();
  const tenantId = await findTenantIdBySlug(db, tenantSlug);
  if (tenantId === null) throw new CliError(`no tenant with slug ${tenantSlug}`);

  const minted = await db.withTenant(tenantId, async (tx) => {
    // The operator stands in for the tenant's owner; a user token still never exceeds that user's role.
    let creator: TokenCreator = {
      tenantSlug,
      userId: null,
      role: 'owner',
      scopes: KIND_SCOPES[request.kind],
    };
    if (userEmail !== null) {
      const email = normalizeEmail(userEmail);
      const member = await tx.user.findUnique({
        where: { email },
        select: { id: true, memberships: { where: { tenantId }, select: { role: true } } },
      });
      const role = member?.memberships[0]?.role;
      if (member === null || role === undefined)
        throw new CliError(`no member with email ${email} in tenant ${tenantSlug}`);
      creator = { tenantSlug, userId: member.id, role, scopes: ROLE_SCOPES[role] };
    }
    const decision = decideTokenCreation(
      creator,
      { kind: request.kind, scopes: request.scopes, workspaceIds: request.workspaceIds, pool: request.pool },
      {
        pools: ctx.config.workerPools,
        existingWorkspaceIds: await existingWorkspaceIds(tx, request.workspaceIds),
      },
    );
    if (!decision.ok) throw new CliError(describeRefusal(decision, tenantSlug));
    const created = await mintApiToken(tx, {
      tenantId,
      createdById: null,
      name: request.name,
      grant: decision.grant,
      expiresAt: request.expiresAt,
    });
    await appendAuditEvent(tx, {
      actor: OPERATOR_ACTOR,
      action: 'tokens.create',
      target: { type: 'api_token', id: created.token.id },
      outcome: 'success',
      data: {
        kind: created.token.kind,
        prefix: created.token.prefix,
        scopes: created.token.scopes,
        userId: created.token.userId,
        workspaceIds: created.token.workspaceIds,
        pool: created.token.pool,
      },
    });
    return created;
  });
  printToken(
    ctx,
    request,
    {
      tokenId: minted.token.id,
      tenant: tenantSlug,
      prefix: minted.token.prefix,
      scopes: minted.token.scopes,
    },
    minted.secret,
  );
}

function printToken(
  ctx: CliContext,
  request: TokenRequest,
  token: { tokenId: string; tenant: string | null; prefix: string; scopes: readonly string[] },
  secret: string,
): void {
  ctx.print(
    {
      ...token,
      kind: request.kind,
      expiresAt: request.expiresAt?.toISOString() ?? null,
      // Shown this once; only its sha256 is stored.
      secret,
    },
    request.json,
  );
}

function describeRefusal(refusal: TokenCreationRefusal, tenantSlug: string): string {
  switch (refusal.reason) {
    case 'gateway_tokens_are_operator_only':
      return 'gateway tokens belong to no tenant';
    case 'kind_not_allowed_for_creator':
      return `this user may not hold a ${refusal.kind} token`;
    case 'scope_not_allowed_for_kind':
      return `this token kind may never hold the scope ${refusal.scope}`;
    case 'scope_beyond_creator':
      return `the user's role does not hold the scope ${refusal.scope}`;
    case 'workspaces_required':
      return 'agent tokens need --workspaces (one or more workspace ids of the tenant)';
    case 'workspaces_not_allowed_for_kind':
      return 'only agent and worker tokens are bound to workspaces';
    case 'workspace_not_found':
      return `no workspace ${refusal.workspaceId} in tenant ${tenantSlug}`;
    case 'pool_required':
      return 'worker tokens need --pool';
    case 'pool_not_allowed_for_kind':
      return 'only worker and gateway tokens name a pool';
    case 'pool_not_open':
      return `the pool ${refusal.pool} is not open to tenant ${tenantSlug} (WORKER_POOLS)`;
  }
}

function tokenName(name: string): string {
  const parsed = createToken.input.shape.name.safeParse(name);
  if (!parsed.success)
    throw usageError('--name must be 1-100 letters, digits, spaces, dots, underscores or dashes');
  return parsed.data;
}

function scopeList(value: string): Scope[] {
  const scopes = list(value);
  const unknown = scopes.find((scope) => !isScope(scope));
  if (unknown !== undefined) throw usageError(`unknown scope ${unknown.slice(0, 40)}`);
  if (scopes.length === 0) throw usageError('--scopes needs at least one scope');
  return scopes as Scope[];
}

function workspaceList(value: string | undefined): string[] {
  const ids = list(value);
  if (ids.some((id) => !isUuid(id)))
    throw usageError('--workspaces must be comma-separated workspace ids (uuids)');
  return ids.map((id) => id.toLowerCase());
}

function expiresInDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > 3650)
    throw usageError('--expires-days must be a whole number from 1 to 3650');
  return days;
}
