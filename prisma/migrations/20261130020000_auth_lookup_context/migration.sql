-- One lookup per authenticated request (docs/benchmarks.md, auth-throughput): gh_auth_token and gh_auth_session
-- also return what the caller needs to build the principal, so no second query (and no transaction) follows.
--   gh_auth_token   + tenant_slug, and for the token's user: role (CURRENT role in the token's tenant, NULL once
--                     the membership is gone) and user_disabled_at
--   gh_auth_session + tenant_slug
-- A function's result columns cannot change in place (CREATE OR REPLACE refuses), so each is dropped and created
-- again, with the same owner (gatehouse_auth), search_path, PUBLIC revocation and grant as in
-- 20261130010100_row_level_security. The whole file is one transaction: callers wait on the drop's lock and then
-- see the new function, never no function.
--
-- Both are now PL/pgSQL: a multi-statement SQL function (and a SECURITY DEFINER one is never inlined) is parsed
-- and planned again on every call, which cost about 0.6-0.8 ms of server CPU per request here; PL/pgSQL keeps its
-- plans for the session. Every column is qualified by its table alias and `#variable_conflict use_column` is set,
-- so the output column names (id, tenant_id, ...) can never be taken for the table's columns or vice versa.

DROP FUNCTION public.gh_auth_token(bytea);
DROP FUNCTION public.gh_auth_session(bytea);

-- A bearer token by the sha256 of its secret: every non-secret column, whatever its state (the caller decides
-- and audits revoked/expired), with its tenant's slug and its user's current role there and disabled_at.
-- last_used_at moves at most once a minute, and only for a live token.
CREATE FUNCTION public.gh_auth_token(p_secret_hash bytea)
RETURNS TABLE (
  id uuid, tenant_id uuid, user_id uuid, created_by_id uuid, kind public.token_kind, name text, scopes text[],
  workspace_ids uuid[], pool text, prefix text, created_at timestamptz, last_used_at timestamptz,
  expires_at timestamptz, revoked_at timestamptz, tenant_slug text, role public.membership_role,
  user_disabled_at timestamptz
)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
#variable_conflict use_column
BEGIN
  UPDATE public.api_tokens AS t SET last_used_at = now()
   WHERE t.secret_hash = p_secret_hash
     AND t.revoked_at IS NULL
     AND (t.expires_at IS NULL OR t.expires_at > now())
     AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute');
  RETURN QUERY
  SELECT t.id, t.tenant_id, t.user_id, t.created_by_id, t.kind, t.name, coalesce(t.scopes, '{}'),
         coalesce(t.workspace_ids, '{}'), t.pool, t.prefix, t.created_at, t.last_used_at, t.expires_at,
         t.revoked_at, tn.slug, m.role, u.disabled_at
    FROM public.api_tokens AS t
    LEFT JOIN public.tenants AS tn ON tn.id = t.tenant_id
    LEFT JOIN public.memberships AS m ON m.tenant_id = t.tenant_id AND m.user_id = t.user_id
    LEFT JOIN public.users AS u ON u.id = t.user_id
   WHERE t.secret_hash = p_secret_hash;
END;
$$;

-- A dashboard session by the sha256 of its cookie: only live sessions (not revoked, not expired). Returns the
-- tenant's slug, the user's disabled_at and the user's role in the session's tenant (NULL once the membership
-- is gone) so the caller can refuse without a second lookup. last_seen_at moves at most once a minute.
CREATE FUNCTION public.gh_auth_session(p_secret_hash bytea)
RETURNS TABLE (
  id uuid, tenant_id uuid, user_id uuid, csrf_hash bytea, created_at timestamptz, last_seen_at timestamptz,
  expires_at timestamptz, user_disabled_at timestamptz, role public.membership_role, tenant_slug text
)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
#variable_conflict use_column
BEGIN
  UPDATE public.sessions AS s SET last_seen_at = now()
   WHERE s.secret_hash = p_secret_hash
     AND s.revoked_at IS NULL
     AND s.expires_at > now()
     AND s.last_seen_at < now() - interval '1 minute';
  RETURN QUERY
  SELECT s.id, s.tenant_id, s.user_id, s.csrf_hash, s.created_at, s.last_seen_at, s.expires_at,
         u.disabled_at, m.role, tn.slug
    FROM public.sessions AS s
    JOIN public.users AS u ON u.id = s.user_id
    JOIN public.tenants AS tn ON tn.id = s.tenant_id
    LEFT JOIN public.memberships AS m ON m.tenant_id = s.tenant_id AND m.user_id = s.user_id
   WHERE s.secret_hash = p_secret_hash
     AND s.revoked_at IS NULL
     AND s.expires_at > now();
END;
$$;

REVOKE ALL ON FUNCTION public.gh_auth_token(bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_auth_session(bytea) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION public.gh_auth_token(bytea) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_auth_session(bytea) TO gatehouse_app;

-- Hand the functions to gatehouse_auth. ALTER ... OWNER needs the new owner to have CREATE on the schema, for
-- the duration of this transaction only.
GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_auth_token(bytea) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_auth_session(bytea) OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
