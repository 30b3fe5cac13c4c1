-- Transport leases (issue 14, item 1; docs/decisions/0058-transport-leases.md, 0059-lease-holders.md). A lease is
-- the API's answer to a worker or gateway token asking to connect to ONE server of ONE workspace for ONE
-- principal (or the workspace alone): what activation, URL admission and the pool's stdio authority decided, bound
-- to the token that asked. The secrets the holder connects with are in the response only, never in this table:
-- a row holds ids, names, the definition fingerprint and times, so nothing here is encrypted.
--
-- A lease is history: the app role inserts, renews (expires_at, renewed_at), releases and revokes it, and never
-- deletes one or rewrites what it was issued for (column-level UPDATE grant).

CREATE TABLE "leases" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    -- The token that asked: only it renews or releases the lease (any other token gets 404).
    "token_id" UUID NOT NULL,
    "token_kind" "token_kind" NOT NULL,
    -- The pool whose authority admitted the transport (the token's pool when it asked).
    "pool" TEXT NOT NULL,
    -- The principal the lease is for; NULL: the workspace alone.
    "principal_user_id" UUID,
    "server_name" TEXT NOT NULL,
    "source_tier" "definition_tier" NOT NULL,
    "source_origin" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    "security_identity" TEXT NOT NULL,
    -- The approval activation matched when the lease was issued (no foreign key: approvals are history too).
    "approval_id" UUID NOT NULL,
    "transport" TEXT NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "renewed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "released_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    -- Why a renewal found the lease no longer held (a short reason word, never a value).
    "revoked_reason" TEXT,

    CONSTRAINT "leases_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "leases_token_kind_check" CHECK ("token_kind" IN ('worker', 'gateway')),
    CONSTRAINT "leases_transport_check" CHECK ("transport" IN ('http', 'stdio')),
    CONSTRAINT "leases_origin_tier_check" CHECK ("source_origin" LIKE ("source_tier"::text || ':%')),
    CONSTRAINT "leases_expiry_check" CHECK ("expires_at" > "issued_at"),
    CONSTRAINT "leases_revocation_check" CHECK (("revoked_at" IS NULL) = ("revoked_reason" IS NULL))
);

CREATE INDEX "leases_tenant_id_workspace_id_server_name_idx" ON "leases"("tenant_id", "workspace_id", "server_name");
CREATE INDEX "leases_token_id_idx" ON "leases"("token_id");

ALTER TABLE "leases" ADD CONSTRAINT "leases_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "leases" ADD CONSTRAINT "leases_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "leases" ADD CONSTRAINT "leases_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "leases" ADD CONSTRAINT "leases_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table (20261130010100_row_level_security): enabled AND forced. A
-- gateway token's lease is a row of the workspace's tenant, written in that tenant's context.
ALTER TABLE "leases" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "leases" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "leases"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT ON "leases" TO gatehouse_app;
GRANT UPDATE ("expires_at", "renewed_at", "released_at", "revoked_at", "revoked_reason") ON "leases" TO gatehouse_app;

-- A gateway token has no tenant: the tenant of what it asks about comes from the workspace (issuing) or from the
-- lease it holds (renewing, releasing). gatehouse_auth reads the two columns it needs, through these functions.
GRANT SELECT ("id", "tenant_id") ON "workspaces" TO gatehouse_auth;
CREATE POLICY "auth_lookup" ON "workspaces" FOR SELECT TO gatehouse_auth USING (true);
GRANT SELECT ("id", "tenant_id", "token_id") ON "leases" TO gatehouse_auth;
CREATE POLICY "auth_lookup" ON "leases" FOR SELECT TO gatehouse_auth USING (true);

-- The tenant (id and slug) a workspace belongs to; no row when there is no such workspace.
CREATE FUNCTION public.gh_workspace_tenant(p_workspace_id uuid)
RETURNS TABLE (tenant_id uuid, tenant_slug text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT w.tenant_id, t.slug
    FROM public.workspaces AS w
    JOIN public.tenants AS t ON t.id = w.tenant_id
   WHERE w.id = p_workspace_id;
$$;

-- The tenant of a lease, only when the given token holds it: another token learns nothing (no row).
CREATE FUNCTION public.gh_lease_tenant(p_lease_id uuid, p_token_id uuid)
RETURNS TABLE (tenant_id uuid, tenant_slug text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT l.tenant_id, t.slug
    FROM public.leases AS l
    JOIN public.tenants AS t ON t.id = l.tenant_id
   WHERE l.id = p_lease_id AND l.token_id = p_token_id;
$$;

REVOKE ALL ON FUNCTION public.gh_workspace_tenant(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_lease_tenant(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.gh_workspace_tenant(uuid) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_lease_tenant(uuid, uuid) TO gatehouse_app;

GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_workspace_tenant(uuid) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_lease_tenant(uuid, uuid) OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
