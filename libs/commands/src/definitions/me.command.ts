import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';
import { uuid } from '../common.schema';
import { SCOPES, TOKEN_KINDS } from '../scopes';
import { membershipRole } from './member.command';

export const whoAmI = defineCommand({
  name: 'me.get',
  summary: 'Who the caller is: tenant, user, role, token kind and effective scopes',
  scope: 'tenant:read',
  kind: 'query',
  input: z.strictObject({}),
  output: z
    .object({
      tenantId: uuid,
      tenantSlug: z.string(),
      userId: uuid.nullable(),
      email: z.string().nullable(),
      role: membershipRole.nullable(),
      via: z.enum(['session', ...TOKEN_KINDS]),
      scopes: z.array(z.enum(SCOPES)),
    })
    .meta({ title: 'Caller' }),
  http: { method: 'GET', path: '/v1/me' },
  graphql: { field: 'me' },
  surfaces: { mcp: MCP_READ },
  problems: [],
});
