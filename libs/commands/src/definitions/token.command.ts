import {
  createdToken,
  createTokenInput,
  introspectTokenInput,
  listTokensInput,
  poolName,
  revokeTokenInput,
  scope,
  tenantTokenKind,
  tokenIntrospection,
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

/**
 * The gateway's view of a caller (decision 0079): is this bearer token one the gateway may serve in this
 * workspace, for whom. Gateway tokens only; never over admin MCP (`tokens.` is withheld). Not audited: it runs on
 * the gateway's cache misses, and it changes nothing.
 */
export const introspectToken = defineCommand({
  name: 'tokens.introspect',
  summary:
    "A caller's bearer token as the gateway may serve it in one workspace: tenant, kind, principal, binding, " +
    'scopes and expiry, or inactive; a workspace the token cannot see is a 404',
  scope: 'tokens:introspect',
  kind: 'query',
  input: introspectTokenInput,
  output: tokenIntrospection,
  // POST: the caller's secret is in the body, never in a URL or a log line.
  http: { method: 'POST', path: '/v1/tokens/introspect' },
  graphql: { field: 'introspectToken' },
  problems: ['not_found'],
  callers: ['gateway'],
});
