-- Who changed what (issue 6, four-eyes): one row per person who changed one server entry of one source, or one
-- variable of one holder, with the time of their latest change. A new approval request counts as authors
-- everyone who changed its entry (or a variable it reads) since the last approval that still holds, so an
-- author cannot approve their own change after someone else edited the same source, after a denial, or after a
-- revocation. Names and ids only: nothing here is secret.

CREATE TABLE "definition_entry_authors" (
    "tenant_id" UUID NOT NULL,
    -- A source origin (`project:<workspace>`, `managed:<name>`, ...) or a variable holder (`variable:tenant`,
    -- `variable:workspace:<id>`, `variable:user:<id>`).
    "origin" TEXT NOT NULL,
    -- The server name (for a source) or the variable name (for a holder).
    "entry_name" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "definition_entry_authors_pkey" PRIMARY KEY ("tenant_id", "origin", "entry_name", "user_id")
);

ALTER TABLE "definition_entry_authors" ADD CONSTRAINT "definition_entry_authors_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_entry_authors" ADD CONSTRAINT "definition_entry_authors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "definition_entry_authors" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "definition_entry_authors" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "definition_entry_authors"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE ON "definition_entry_authors" TO gatehouse_app;
