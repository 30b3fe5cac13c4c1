import { z } from 'zod';
import { scope, tenantTokenKind, tokenKind } from './access.schema';
import { isoDateTime, page, pageInput, resourceName, uuid } from './common.schema';

export const poolName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes');

export const tokenView = z
  .object({
    id: uuid,
    name: z.string(),
    kind: tokenKind,
    prefix: z.string(),
    scopes: z.array(scope),
    userId: uuid.nullable(),
    workspaceIds: z.array(uuid),
    pool: z.string().nullable(),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
    expiresAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
  })
  .meta({ title: 'ApiToken' });
export const tokenPage = page(tokenView).meta({ title: 'ApiTokenPage' });
export const createdToken = z
  .object({ token: tokenView, secret: z.string() })
  .meta({ title: 'CreatedApiToken' });

export const listTokensInput = z.strictObject({ ...pageInput, includeRevoked: z.stringbool().optional() });
export const createTokenInput = z.strictObject({
  name: resourceName,
  kind: tenantTokenKind,
  scopes: z.array(scope).min(1).max(32),
  workspaceIds: z.array(uuid).max(100).optional(),
  pool: poolName.optional(),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export const revokeTokenInput = z.strictObject({ tokenId: uuid });

/** The token kinds that may call the gateway: a person's user token, or an agent token of the workspace. */
export const GATEWAY_CALLER_KINDS = ['user', 'agent'] as const;
export const gatewayCallerKind = z.enum(GATEWAY_CALLER_KINDS);

/**
 * `tokens.introspect` (gateway tokens only, decision 0079): a caller's bearer token, presented to the gateway, and
 * the workspace it asked for. The secret travels in the body (never a URL), is hashed at once and never stored,
 * logged or audited.
 */
export const introspectTokenInput = z.strictObject({
  token: z.string().min(1).max(512),
  workspaceId: uuid,
});

/**
 * What the gateway learns of a caller (RFC 7662 in spirit): `active: false` with every other member empty for
 * any token that may not use the gateway (unknown, revoked, expired, a disabled user, a removed member, a kind or
 * scope the gateway does not serve), one answer for all. A live token asking for a workspace it cannot see
 * (another tenant's, one outside its binding, none at all) is a 404 instead, so the gateway can answer 404 too.
 */
export const tokenIntrospection = z
  .object({
    active: z.boolean(),
    tokenId: uuid.nullable(),
    tenantId: uuid.nullable(),
    kind: gatewayCallerKind.nullable(),
    /** The person the gateway serves (user tokens); null: the workspace alone (agent tokens). */
    userId: uuid.nullable(),
    /** The workspaces the token is bound to; empty: not bound. */
    workspaceIds: z.array(uuid),
    scopes: z.array(scope),
    expiresAt: isoDateTime.nullable(),
  })
  .meta({ title: 'TokenIntrospection' });
