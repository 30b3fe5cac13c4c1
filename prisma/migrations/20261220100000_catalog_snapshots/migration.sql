-- Catalog snapshots (issue 14 items 3 and 4; docs/decisions/0067-catalog-snapshots-and-refresh-jobs.md). What a
-- worker discovered of ONE server of ONE workspace, for ONE principal (or the workspace alone), at ONE definition
-- fingerprint, posted for a live lease it held (`catalog.submit`). The document is libs/contracts'
-- catalogDocument (v1, one server), which carries no secret: names, schemas, descriptions and diagnostics only.
--
-- One current snapshot per (workspace, server, fingerprint, principal): a submit replaces the row in one
-- statement (INSERT .. ON CONFLICT DO UPDATE), so a reader sees the old snapshot or the new one, never half.
-- `principal_key` is the principal's id or 'workspace' (a NULL could not take part in the unique key).

CREATE TABLE "catalog_snapshots" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "server_name" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    -- The principal the catalog is for; NULL: the workspace alone.
    "principal_user_id" UUID,
    "principal_key" TEXT NOT NULL,
    -- The lease it was posted for (no foreign key needed for reading; the lease row is history).
    "lease_id" UUID NOT NULL,
    "protocol_version" TEXT NOT NULL,
    "server_version" TEXT NOT NULL,
    "document" JSONB NOT NULL,
    "complete" BOOLEAN NOT NULL,
    "stale" BOOLEAN NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_snapshots_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "catalog_snapshots_principal_key_check" CHECK (
        ("principal_user_id" IS NULL AND "principal_key" = 'workspace')
        OR ("principal_user_id" IS NOT NULL AND "principal_key" = "principal_user_id"::text))
);

CREATE UNIQUE INDEX "catalog_snapshots_tenant_id_workspace_id_server_name_definition_fingerprint_principal_key_key"
    ON "catalog_snapshots"("tenant_id", "workspace_id", "server_name", "definition_fingerprint", "principal_key");

ALTER TABLE "catalog_snapshots" ADD CONSTRAINT "catalog_snapshots_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "catalog_snapshots" ADD CONSTRAINT "catalog_snapshots_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "catalog_snapshots" ADD CONSTRAINT "catalog_snapshots_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table: enabled AND forced.
ALTER TABLE "catalog_snapshots" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "catalog_snapshots" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "catalog_snapshots"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "catalog_snapshots" TO gatehouse_app;
