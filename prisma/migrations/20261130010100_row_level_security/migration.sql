-- Tenant isolation in depth (docs/decisions/0002-row-level-security.md).
--
-- Roles are cluster-wide and created outside migrations (libs/db setupDatabaseRoles):
--   gatehouse_owner  runs this file; owns the schema and tables
--   gatehouse_app    the app's DATABASE_URL; no superuser, no BYPASSRLS, owns nothing
--   gatehouse_auth   NOLOGIN; owns the SECURITY DEFINER lookups below; gatehouse_owner is a member
-- The tenant context is the transaction-local GUC app.tenant_id (set_config(..., true)); with no tenant set the
-- expression below is NULL and every comparison with it is false, so nothing is visible.

-- Schema: nobody but the owner creates objects; the app and the definer role may only resolve names in it.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO gatehouse_app, gatehouse_auth;

-- Functions created by the owner from now on are not executable by PUBLIC unless granted.
ALTER DEFAULT PRIVILEGES FOR ROLE gatehouse_owner IN SCHEMA public REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- ---------------------------------------------------------------------------------------------------------
-- Row-level security: enabled AND forced (the owner obeys the policies too; only RI checks bypass them).
-- ---------------------------------------------------------------------------------------------------------
ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "tenants" FORCE ROW LEVEL SECURITY;
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
ALTER TABLE "memberships" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "memberships" FORCE ROW LEVEL SECURITY;
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "sessions" FORCE ROW LEVEL SECURITY;
ALTER TABLE "api_tokens" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "api_tokens" FORCE ROW LEVEL SECURITY;
ALTER TABLE "workspaces" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "workspaces" FORCE ROW LEVEL SECURITY;
ALTER TABLE "workspace_members" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "workspace_members" FORCE ROW LEVEL SECURITY;
ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "audit_events" FORCE ROW LEVEL SECURITY;
ALTER TABLE "audit_heads" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "audit_heads" FORCE ROW LEVEL SECURITY;

-- A tenant row is its own scope: inserting one requires setting app.tenant_id to the new id first.
CREATE POLICY "tenant_isolation" ON "tenants"
  USING ("id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- Users are global. Readable when they are a member of the current tenant, or are the current user
-- (app.user_id). Written only as the current user: a tenant context alone must never change a person who
-- also belongs to other tenants, so writes need withTenantAndUser(tenant, thatUser).
CREATE POLICY "user_visible" ON "users" FOR SELECT
  USING (
    "id" = nullif(current_setting('app.user_id', true), '')::uuid
    OR EXISTS (
      SELECT 1 FROM "memberships" m
       WHERE m."user_id" = "users"."id"
         AND m."tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid
    )
  );
CREATE POLICY "user_self_insert" ON "users" FOR INSERT
  WITH CHECK ("id" = nullif(current_setting('app.user_id', true), '')::uuid);
CREATE POLICY "user_self_update" ON "users" FOR UPDATE
  USING ("id" = nullif(current_setting('app.user_id', true), '')::uuid)
  WITH CHECK ("id" = nullif(current_setting('app.user_id', true), '')::uuid);
CREATE POLICY "user_self_delete" ON "users" FOR DELETE
  USING ("id" = nullif(current_setting('app.user_id', true), '')::uuid);

CREATE POLICY "tenant_isolation" ON "memberships"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

CREATE POLICY "tenant_isolation" ON "sessions"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- Gateway tokens (tenant_id NULL) never match: they are invisible and unwritable in any tenant context.
CREATE POLICY "tenant_isolation" ON "api_tokens"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

CREATE POLICY "tenant_isolation" ON "workspaces"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

CREATE POLICY "tenant_isolation" ON "workspace_members"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- Append-only: policies exist only for reading and appending, so even a stray UPDATE/DELETE grant matches
-- no row.
CREATE POLICY "tenant_read" ON "audit_events" FOR SELECT
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_append" ON "audit_events" FOR INSERT
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

CREATE POLICY "tenant_isolation" ON "audit_heads"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- ---------------------------------------------------------------------------------------------------------
-- Privileges of the app role. No TRUNCATE, REFERENCES or TRIGGER; audit_events is SELECT + INSERT only.
-- ---------------------------------------------------------------------------------------------------------
GRANT SELECT, INSERT, UPDATE, DELETE ON
  "tenants", "users", "memberships", "sessions", "api_tokens", "workspaces", "workspace_members", "audit_heads"
  TO gatehouse_app;
GRANT SELECT, INSERT ON "audit_events" TO gatehouse_app;

-- ---------------------------------------------------------------------------------------------------------
-- gatehouse_auth: reads across tenants, only through the functions it owns (it cannot log in). Its policies
-- are OR-ed with the tenant ones; column grants keep its writes to the "touch" columns.
-- ---------------------------------------------------------------------------------------------------------
GRANT SELECT ON "tenants", "users", "memberships", "sessions", "api_tokens" TO gatehouse_auth;
GRANT UPDATE ("last_used_at", "revoked_at") ON "api_tokens" TO gatehouse_auth;
GRANT UPDATE ("last_seen_at") ON "sessions" TO gatehouse_auth;
GRANT INSERT ON "api_tokens" TO gatehouse_auth;

CREATE POLICY "auth_lookup" ON "tenants" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_lookup" ON "users" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_lookup" ON "memberships" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_lookup" ON "sessions" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_touch" ON "sessions" FOR UPDATE TO gatehouse_auth USING (true) WITH CHECK (true);
CREATE POLICY "auth_lookup" ON "api_tokens" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_touch" ON "api_tokens" FOR UPDATE TO gatehouse_auth USING (true) WITH CHECK (true);
CREATE POLICY "auth_insert_gateway" ON "api_tokens" FOR INSERT TO gatehouse_auth
  WITH CHECK ("tenant_id" IS NULL AND "user_id" IS NULL AND "kind" = 'gateway');

-- ---------------------------------------------------------------------------------------------------------
-- SECURITY DEFINER lookups for what must happen before the tenant is known. Every name is schema-qualified
-- and pg_temp is searched last, so a caller's temporary objects cannot stand in for ours. Parameters are
-- p_-prefixed because in SQL functions a column of the same name would win over the parameter.
-- ---------------------------------------------------------------------------------------------------------

-- A bearer token by the sha256 of its secret: every non-secret column, whatever its state (the caller decides
-- and audits revoked/expired). last_used_at moves at most once a minute, and only for a live token.
CREATE FUNCTION public.gh_auth_token(p_secret_hash bytea)
RETURNS TABLE (
  id uuid, tenant_id uuid, user_id uuid, created_by_id uuid, kind public.token_kind, name text, scopes text[],
  workspace_ids uuid[], pool text, prefix text, created_at timestamptz, last_used_at timestamptz,
  expires_at timestamptz, revoked_at timestamptz
)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  UPDATE public.api_tokens AS t SET last_used_at = now()
   WHERE t.secret_hash = p_secret_hash
     AND t.revoked_at IS NULL
     AND (t.expires_at IS NULL OR t.expires_at > now())
     AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute');
  SELECT t.id, t.tenant_id, t.user_id, t.created_by_id, t.kind, t.name, coalesce(t.scopes, '{}'),
         coalesce(t.workspace_ids, '{}'), t.pool, t.prefix, t.created_at, t.last_used_at, t.expires_at,
         t.revoked_at
    FROM public.api_tokens AS t
   WHERE t.secret_hash = p_secret_hash;
$$;

-- A dashboard session by the sha256 of its cookie: only live sessions (not revoked, not expired). Returns the
-- user's disabled_at and the user's role in the session's tenant (NULL once the membership is gone) so the
-- caller can refuse without a second lookup. last_seen_at moves at most once a minute.
CREATE FUNCTION public.gh_auth_session(p_secret_hash bytea)
RETURNS TABLE (
  id uuid, tenant_id uuid, user_id uuid, csrf_hash bytea, created_at timestamptz, last_seen_at timestamptz,
  expires_at timestamptz, user_disabled_at timestamptz, role public.membership_role
)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  UPDATE public.sessions AS s SET last_seen_at = now()
   WHERE s.secret_hash = p_secret_hash
     AND s.revoked_at IS NULL
     AND s.expires_at > now()
     AND s.last_seen_at < now() - interval '1 minute';
  SELECT s.id, s.tenant_id, s.user_id, s.csrf_hash, s.created_at, s.last_seen_at, s.expires_at,
         u.disabled_at, m.role
    FROM public.sessions AS s
    JOIN public.users AS u ON u.id = s.user_id
    LEFT JOIN public.memberships AS m ON m.tenant_id = s.tenant_id AND m.user_id = s.user_id
   WHERE s.secret_hash = p_secret_hash
     AND s.revoked_at IS NULL
     AND s.expires_at > now();
$$;

-- A login by exact email (callers normalize the address before storing and looking up): one row per
-- membership, or one row with NULL tenant columns for a user without any. No row: unknown email.
CREATE FUNCTION public.gh_auth_login(p_email text)
RETURNS TABLE (
  user_id uuid, password_hash text, disabled_at timestamptz, tenant_id uuid, tenant_slug text,
  role public.membership_role
)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT u.id, u.password_hash, u.disabled_at, m.tenant_id, t.slug, m.role
    FROM public.users AS u
    LEFT JOIN public.memberships AS m ON m.user_id = u.id
    LEFT JOIN public.tenants AS t ON t.id = m.tenant_id
   WHERE u.email = p_email
   ORDER BY t.slug;
$$;

-- Every tenant id, for jobs that walk all tenants (key rotation) one withTenant at a time.
CREATE FUNCTION public.gh_tenant_ids()
RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT t.id FROM public.tenants AS t ORDER BY t.id;
$$;

-- A tenant id by its slug (URLs and sign-in name tenants by slug); NULL when there is none.
CREATE FUNCTION public.gh_tenant_id_by_slug(p_slug text)
RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT t.id FROM public.tenants AS t WHERE t.slug = p_slug;
$$;

-- Operator only (EXECUTE granted to gatehouse_owner, never to the app): tenantless gateway tokens.
CREATE FUNCTION public.gh_operator_insert_gateway_token(
  p_name text, p_scopes text[], p_pool text, p_secret_hash bytea, p_prefix text, p_expires_at timestamptz
)
RETURNS uuid
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  INSERT INTO public.api_tokens
    (id, tenant_id, user_id, kind, name, scopes, workspace_ids, pool, secret_hash, prefix, expires_at)
  VALUES
    (gen_random_uuid(), NULL, NULL, 'gateway', p_name, p_scopes, '{}', p_pool, p_secret_hash, p_prefix, p_expires_at)
  RETURNING id;
$$;

CREATE FUNCTION public.gh_operator_revoke_gateway_token(p_id uuid)
RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  WITH revoked AS (
    UPDATE public.api_tokens AS t SET revoked_at = now()
     WHERE t.id = p_id AND t.tenant_id IS NULL AND t.revoked_at IS NULL
    RETURNING 1
  )
  SELECT count(*) > 0 FROM revoked;
$$;

REVOKE ALL ON FUNCTION public.gh_auth_token(bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_auth_session(bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_auth_login(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_tenant_ids() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_tenant_id_by_slug(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_operator_insert_gateway_token(text, text[], text, bytea, text, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_operator_revoke_gateway_token(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION public.gh_auth_token(bytea) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_auth_session(bytea) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_auth_login(text) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_tenant_ids() TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_tenant_id_by_slug(text) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_operator_insert_gateway_token(text, text[], text, bytea, text, timestamptz) TO gatehouse_owner;
GRANT EXECUTE ON FUNCTION public.gh_operator_revoke_gateway_token(uuid) TO gatehouse_owner;

-- Hand the functions to gatehouse_auth. ALTER ... OWNER needs the new owner to have CREATE on the schema, for
-- the duration of this transaction only.
GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_auth_token(bytea) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_auth_session(bytea) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_auth_login(text) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_tenant_ids() OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_tenant_id_by_slug(text) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_operator_insert_gateway_token(text, text[], text, bytea, text, timestamptz) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_operator_revoke_gateway_token(uuid) OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
