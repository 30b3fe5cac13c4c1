/**
 * Every problem `code` the Gatehouse API answers with (RFC 9457 bodies on REST, `extensions.code` on GraphQL), in
 * one list. `ProblemError` only takes these, so a code cannot be invented in one place; the dashboard switches on
 * them. One code per meaning: `unauthenticated` (never "unauthorized"), `rate_limited` (never "too many
 * requests"). Codes are part of the API: add, never rename.
 */
export const PROBLEM_CODES = Object.freeze([
  // The request itself (framework, parsers, guards).
  'bad_request',
  'malformed_json',
  'duplicate_key',
  'invalid_characters',
  'payload_too_large',
  'unsupported_media_type',
  'uri_too_long',
  'request_header_fields_too_large',
  'request_timeout',
  'method_not_allowed',
  'not_acceptable',
  'length_required',
  'precondition_failed',
  'unprocessable_content',
  'gone',
  'client_error',
  'validation_failed',
  'rate_limited',
  // Who is calling.
  'unauthenticated',
  'csrf_failed',
  'forbidden',
  'forbidden_scope',
  'forbidden_caller',
  'pool_not_open',
  'tenant_required',
  'tenant_not_member',
  'no_membership',
  'scope_not_allowed_for_kind',
  'gateway_tokens_are_operator_only',
  // Resources and their state.
  'not_found',
  'conflict',
  'bad_cursor',
  'outside_operator_ceiling',
  // The approval workflow.
  'not_approvable',
  'request_not_open',
  'decider_not_human',
  'role_cannot_decide',
  'four_eyes_author',
  'changed_since_review',
  // The request's definition source cannot be read now (its sealed document does not open, or its row is gone).
  'source_unreadable',
  'already_revoked',
  // Transport leases (a refusal is audited; where an approval is missing or expired it opens a request).
  'not_approved',
  'server_not_leasable',
  'destination_refused',
  'stdio_refused',
  'header_helper_refused',
  'authentication_unavailable',
  // A server that declares OAuth: no credential of the principal (nor a service credential) can serve it.
  'needs_sign_in',
  // Its access token had to be refreshed and no refresh could be made now: retry later.
  'oauth_refresh_unavailable',
  'lease_ended',
  // Catalog snapshots: the document is not of the lease's server (or of more than one).
  'snapshot_mismatch',
  // Catalog refresh: no pool open to the tenant may run the server (stdio or a header helper nowhere allowed).
  'refresh_unroutable',
  // Upstream OAuth sign-in (the refusal's class only: never a token, a URL or an authorization server's text).
  'oauth_not_declared',
  'oauth_discovery_refused',
  'oauth_client_unavailable',
  'sign_in_refused',
  // A service credential for a server whose definition (in the workspace's own view) does not allow shared use.
  'shared_use_not_allowed',
  // GraphQL documents refused before anything runs.
  'too_many_fields',
  'too_many_aliases',
  'too_many_selections',
  'query_too_costly',
  'operation_name_required',
  'unknown_operation',
  'subscriptions_unsupported',
  // Ours (logged, never explained).
  'internal',
  'dependency_unavailable',
] as const);

export type ProblemCode = (typeof PROBLEM_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(PROBLEM_CODES);

/** Whether an untrusted value (a response body's `code`) is one of the API's problem codes. */
export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && KNOWN.has(value);
}
