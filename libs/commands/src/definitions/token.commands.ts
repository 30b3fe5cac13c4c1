import { z } from 'zod';
import { defineCommand } from '../command';
import { isoDateTime, page, pageInput, resourceName, uuid } from '../common.schemas';
import { SCOPES, TOKEN_KINDS } from '../scopes';

export const scope = z.enum(SCOPES);
/** Tenant admins mint user, agent and worker tokens; gateway tokens come only from the operator's CLI. */
export const tenantTokenKind = z.enum(['user', 'agent', 'worker']);
export const poolName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes');

export const tokenView = z
  .object({
    id: uuid,
    name: z.string(),
    kind: z.enum(TOKEN_KINDS),
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

export const listTokens = defineCommand({
  name: 'tokens.list',
  summary: "API tokens, by prefix (admins see the tenant's, others their own)",
  scope: 'tokens:read',
  kind: 'query',
  input: z.strictObject({ ...pageInput, includeRevoked: z.stringbool().optional() }),
  output: page(tokenView).meta({ title: 'ApiTokenPage' }),
  http: { method: 'GET', path: '/v1/tokens' },
  graphql: { field: 'tokens' },
  problems: ['bad_cursor'],
});

export const createToken = defineCommand({
  name: 'tokens.create',
  summary: 'Create an API token; its secret is in this response only',
  scope: 'tokens:write',
  kind: 'mutation',
  input: z.strictObject({
    name: resourceName,
    kind: tenantTokenKind,
    scopes: z.array(scope).min(1).max(32),
    workspaceIds: z.array(uuid).max(100).optional(),
    pool: poolName.optional(),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  }),
  output: z.object({ token: tokenView, secret: z.string() }).meta({ title: 'CreatedApiToken' }),
  http: { method: 'POST', path: '/v1/tokens', successStatus: 201 },
  graphql: { field: 'createToken' },
  problems: ['not_found', 'pool_not_open', 'scope_not_allowed_for_kind', 'gateway_tokens_are_operator_only'],
  revealsSecret: true,
});

export const revokeToken = defineCommand({
  name: 'tokens.revoke',
  summary: 'Revoke an API token (idempotent)',
  scope: 'tokens:write',
  kind: 'mutation',
  input: z.strictObject({ tokenId: uuid }),
  output: tokenView,
  http: { method: 'DELETE', path: '/v1/tokens/:tokenId' },
  graphql: { field: 'revokeToken' },
  problems: ['not_found'],
});
