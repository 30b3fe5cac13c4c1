import {
  changeMemberRoleInput,
  listMembersInput,
  memberPage,
  memberRemoval,
  memberView,
  membershipRole,
  removeMemberInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

export { memberView, membershipRole };

export const listMembers = defineCommand({
  name: 'members.list',
  summary: 'Members of the tenant and their roles',
  scope: 'members:read',
  kind: 'query',
  input: listMembersInput,
  output: memberPage,
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
  input: changeMemberRoleInput,
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
  input: removeMemberInput,
  output: memberRemoval,
  http: { method: 'DELETE', path: '/v1/members/:userId' },
  graphql: { field: 'removeMember' },
  problems: ['not_found', 'forbidden'],
});
