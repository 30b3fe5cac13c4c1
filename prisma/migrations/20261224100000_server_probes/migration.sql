-- Server probes (issue 14 item 3; docs/decisions/0078-probe-queue.md). The last probe of ONE server of ONE
-- workspace, for ONE principal (or the workspace alone), at ONE definition fingerprint, reported by the worker for
-- the live lease it held (`probes.submit`): reached (handshake and ping) or the failure class and reason word why
-- not. No secret and no error text: a state, a class, a fixed word and what the server named itself.
--
-- One current row per (workspace, server, fingerprint, principal), replaced in one upsert like catalog_snapshots.

CREATE TABLE "server_probes" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "server_name" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    "principal_user_id" UUID,
    "principal_key" TEXT NOT NULL,
    "lease_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "failure_class" TEXT,
    "reason" TEXT,
    "protocol_version" TEXT,
    "server_version" TEXT,
    "probed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "server_probes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "server_probes_principal_key_check" CHECK (
        ("principal_user_id" IS NULL AND "principal_key" = 'workspace')
        OR ("principal_user_id" IS NOT NULL AND "principal_key" = "principal_user_id"::text)),
    CONSTRAINT "server_probes_state_check" CHECK (
        ("state" = 'ready' AND "failure_class" IS NULL AND "reason" IS NULL)
        OR ("state" = 'failed' AND "failure_class" IN ('transient', 'auth', 'protocol', 'config', 'fatal')
            AND "reason" IS NOT NULL))
);

CREATE UNIQUE INDEX "server_probes_tenant_id_workspace_id_server_name_definition_fingerprint_principal_key_key"
    ON "server_probes"("tenant_id", "workspace_id", "server_name", "definition_fingerprint", "principal_key");

ALTER TABLE "server_probes" ADD CONSTRAINT "server_probes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "server_probes" ADD CONSTRAINT "server_probes_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "server_probes" ADD CONSTRAINT "server_probes_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table: enabled AND forced.
ALTER TABLE "server_probes" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "server_probes" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "server_probes"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "server_probes" TO gatehouse_app;
