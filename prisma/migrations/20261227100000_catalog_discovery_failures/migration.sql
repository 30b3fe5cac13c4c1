-- Catalog discovery failures (docs/decisions/0142-discovery-failures-visible.md). Why the last discovery of ONE
-- server of ONE workspace, for ONE principal (or the workspace alone), at ONE definition fingerprint failed, as the
-- worker reported it for the live lease it held (`catalog.reportFailure`): the failure class and one fixed reason
-- word, never an error's text. The catalog shows it on the server while it is pending discovery.
--
-- One current row per (workspace, server, fingerprint, principal), keyed like catalog_snapshots and replaced in
-- one upsert; a snapshot posted for the same key deletes it in the snapshot's transaction.

CREATE TABLE "catalog_discovery_failures" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "server_name" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    "principal_user_id" UUID,
    "principal_key" TEXT NOT NULL,
    "lease_id" UUID NOT NULL,
    "failure_class" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "failed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_discovery_failures_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "catalog_discovery_failures_principal_key_check" CHECK (
        ("principal_user_id" IS NULL AND "principal_key" = 'workspace')
        OR ("principal_user_id" IS NOT NULL AND "principal_key" = "principal_user_id"::text)),
    -- The words only: the API holds them to libs/contracts' closed lists; the database to their shape.
    CONSTRAINT "catalog_discovery_failures_words_check" CHECK (
        "failure_class" IN ('transient', 'auth', 'protocol', 'config', 'fatal')
        AND "reason" ~ '^[a-z][a-z0-9_]{0,63}$')
);

CREATE UNIQUE INDEX "catalog_discovery_failures_tenant_id_workspace_id_server_name_definition_fingerprint_principal_key_key"
    ON "catalog_discovery_failures"("tenant_id", "workspace_id", "server_name", "definition_fingerprint", "principal_key");

ALTER TABLE "catalog_discovery_failures" ADD CONSTRAINT "catalog_discovery_failures_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "catalog_discovery_failures" ADD CONSTRAINT "catalog_discovery_failures_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "catalog_discovery_failures" ADD CONSTRAINT "catalog_discovery_failures_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table: enabled AND forced.
ALTER TABLE "catalog_discovery_failures" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "catalog_discovery_failures" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "catalog_discovery_failures"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "catalog_discovery_failures" TO gatehouse_app;
