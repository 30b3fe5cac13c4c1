import {
  createdToken,
  createTokenInput,
  listTokensInput,
  poolName,
  revokeTokenInput,
  scope,
  tenantTokenKind,
  tokenPage,
  tokenView,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';

export { poolName, scope, tenantTokenKind, tokenView };

export const listTokens = defineCommand({
  name: 'tokens.list',
  summary: "API tokens, by prefix (admins see the tenant's, others their own)",
  scope: 'tokens:read',
  kind: 'query',
  input: listTokensInput,
  output: tokenPage,
  http: { method: 'GET', path: '/v1/tokens' },
  graphql: { field: 'tokens' },
  problems: ['bad_cursor'],
});

export const createToken = defineCommand({
  name: 'tokens.create',
  summary: 'Create an API token; its secret is in this response only',
  scope: 'tokens:write',
  kind: 'mutation',
  input: createTokenInput,
  output: createdToken,
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
  input: revokeTokenInput,
  output: tokenView,
  http: { method: 'DELETE', path: '/v1/tokens/:tokenId' },
  graphql: { field: 'revokeToken' },
  problems: ['not_found'],
});
