-- Definition source versions (issue 18 item 1; docs/decisions/0086-definition-source-versions.md). Every write
-- that changes a source's document stores that version's document here, sealed like the live row (envelope
-- ciphertext, AAD bound to THIS row's id and tenant, registered for key rotation), so the dashboard can show a
-- source's history and the diff between two versions as redacted projections. A write that changes nothing
-- stores nothing. The live row stays the one current document (definition_sources); a source written before this
-- migration has no row here for its current version until its next write (the history reads it from the live
-- row). The newest 100 versions of a source are kept; the write that stores the 101st deletes the oldest.

CREATE TABLE "definition_source_versions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "document_ct" BYTEA NOT NULL,
    -- Counts only (never content), for the history list without opening every ciphertext.
    "entries" INTEGER NOT NULL,
    "problems" INTEGER NOT NULL,
    "written_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "definition_source_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "definition_source_versions_version_check" CHECK ("version" >= 1)
);

CREATE UNIQUE INDEX "definition_source_versions_tenant_id_source_id_version_key"
    ON "definition_source_versions"("tenant_id", "source_id", "version");

ALTER TABLE "definition_source_versions" ADD CONSTRAINT "definition_source_versions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_source_versions" ADD CONSTRAINT "definition_source_versions_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "definition_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_source_versions" ADD CONSTRAINT "definition_source_versions_written_by_fkey" FOREIGN KEY ("written_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table: enabled AND forced.
ALTER TABLE "definition_source_versions" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "definition_source_versions" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "definition_source_versions"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, DELETE ON "definition_source_versions" TO gatehouse_app;
