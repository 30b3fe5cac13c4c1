import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';
import { isoDateTime, page, pageInput, uuid } from '../common.schemas';
import { MEMBERSHIP_ROLES } from '../scopes';

export const membershipRole = z.enum(MEMBERSHIP_ROLES);

export const memberView = z
  .object({ userId: uuid, email: z.string(), displayName: z.string(), role: membershipRole, joinedAt: isoDateTime })
  .meta({ title: 'Member' });

export const listMembers = defineCommand({
  name: 'members.list',
  summary: 'Members of the tenant and their roles',
  scope: 'members:read',
  kind: 'query',
  input: z.strictObject({ ...pageInput }),
  output: page(memberView).meta({ title: 'MemberPage' }),
  http: { method: 'GET', path: '/v1/members' },
  graphql: { field: 'members' },
  surfaces: { mcp: MCP_READ },
  problems: ['bad_cursor'],
});

export const changeMemberRole = defineCommand({
  name: 'members.changeRole',
  summary: "Change a member's role (only owners grant or remove owner; the last owner stays)",
  scope: 'members:write',
  kind: 'mutation',
  input: z.strictObject({ userId: uuid, role: membershipRole }),
  output: memberView,
  http: { method: 'PATCH', path: '/v1/members/:userId' },
  graphql: { field: 'changeMemberRole' },
  problems: ['not_found', 'forbidden'],
});

export const removeMember = defineCommand({
  name: 'members.remove',
  summary: 'Remove a member from the tenant (revokes their sessions and tokens here)',
  scope: 'members:write',
  kind: 'mutation',
  input: z.strictObject({ userId: uuid }),
  output: z.object({ removed: z.boolean() }).meta({ title: 'MemberRemoval' }),
  http: { method: 'DELETE', path: '/v1/members/:userId' },
  graphql: { field: 'removeMember' },
  problems: ['not_found', 'forbidden'],
});
