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
