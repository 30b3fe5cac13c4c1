-- Server definitions (issue 5): definition sources per tier, write-only variables, disable overlays.
-- Documents and variable values are envelope ciphertexts (libs/crypto; AAD = table, column, row id, tenant),
-- registered for key rotation in libs/db/src/key-rotation/encrypted-columns.ts. No plaintext value column exists:
-- readability and problems hold reasons and paths only.

CREATE TYPE "definition_tier" AS ENUM ('managed', 'local', 'project', 'user', 'plugin');
CREATE TYPE "definition_variable_scope" AS ENUM ('tenant', 'workspace', 'user');
CREATE TYPE "disable_overlay_scope" AS ENUM ('workspace', 'user');

CREATE TABLE "definition_sources" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "tier" "definition_tier" NOT NULL,
    "origin" TEXT NOT NULL,
    "workspace_id" UUID,
    "owner_user_id" UUID,
    "document_ct" BYTEA NOT NULL,
    "readability" TEXT NOT NULL,
    "problems" JSONB NOT NULL DEFAULT '[]',
    "updated_by" UUID,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "definition_sources_pkey" PRIMARY KEY ("id"),
    -- The origin encodes the tier and its owners; these keep the columns and the origin from disagreeing.
    CONSTRAINT "definition_sources_origin_tier_check" CHECK ("origin" LIKE ("tier"::text || ':%')),
    CONSTRAINT "definition_sources_owner_check" CHECK (
      ("tier" IN ('managed', 'plugin') AND "workspace_id" IS NULL AND "owner_user_id" IS NULL)
      OR ("tier" = 'project' AND "workspace_id" IS NOT NULL AND "owner_user_id" IS NULL)
      OR ("tier" = 'local' AND "workspace_id" IS NOT NULL AND "owner_user_id" IS NOT NULL)
      OR ("tier" = 'user' AND "workspace_id" IS NULL AND "owner_user_id" IS NOT NULL)
    ),
    CONSTRAINT "definition_sources_readability_check" CHECK ("readability" IN ('readable', 'unreadable'))
);

CREATE TABLE "definition_variables" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "scope" "definition_variable_scope" NOT NULL,
    -- `tenant`, `workspace:<id>` or `user:<id>`: one key per holder, so uniqueness needs no nullable columns.
    "holder" TEXT NOT NULL,
    "workspace_id" UUID,
    "user_id" UUID,
    "name" TEXT NOT NULL,
    "value_ct" BYTEA NOT NULL,
    "updated_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "definition_variables_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "definition_variables_holder_check" CHECK (
      ("scope" = 'tenant' AND "workspace_id" IS NULL AND "user_id" IS NULL AND "holder" = 'tenant')
      OR ("scope" = 'workspace' AND "workspace_id" IS NOT NULL AND "user_id" IS NULL
          AND "holder" = 'workspace:' || "workspace_id"::text)
      OR ("scope" = 'user' AND "workspace_id" IS NULL AND "user_id" IS NOT NULL
          AND "holder" = 'user:' || "user_id"::text)
    )
);

CREATE TABLE "disable_overlays" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "scope" "disable_overlay_scope" NOT NULL,
    -- `workspace` or `user:<id>` (a user's overlay applies in one workspace, for that user alone).
    "holder" TEXT NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID,
    "server_name" TEXT NOT NULL,
    "reason" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disable_overlays_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "disable_overlays_holder_check" CHECK (
      ("scope" = 'workspace' AND "user_id" IS NULL AND "holder" = 'workspace')
      OR ("scope" = 'user' AND "user_id" IS NOT NULL AND "holder" = 'user:' || "user_id"::text)
    )
);

CREATE UNIQUE INDEX "definition_sources_tenant_id_origin_key" ON "definition_sources"("tenant_id", "origin");
CREATE INDEX "definition_sources_tenant_id_workspace_id_idx" ON "definition_sources"("tenant_id", "workspace_id");
CREATE UNIQUE INDEX "definition_variables_tenant_id_holder_name_key" ON "definition_variables"("tenant_id", "holder", "name");
CREATE UNIQUE INDEX "disable_overlays_tenant_id_workspace_id_holder_server_name_key" ON "disable_overlays"("tenant_id", "workspace_id", "holder", "server_name");

ALTER TABLE "definition_sources" ADD CONSTRAINT "definition_sources_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_sources" ADD CONSTRAINT "definition_sources_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_sources" ADD CONSTRAINT "definition_sources_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_variables" ADD CONSTRAINT "definition_variables_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_variables" ADD CONSTRAINT "definition_variables_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "definition_variables" ADD CONSTRAINT "definition_variables_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disable_overlays" ADD CONSTRAINT "disable_overlays_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disable_overlays" ADD CONSTRAINT "disable_overlays_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disable_overlays" ADD CONSTRAINT "disable_overlays_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table (20261130010100_row_level_security): enabled AND forced.
ALTER TABLE "definition_sources" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "definition_sources" FORCE ROW LEVEL SECURITY;
ALTER TABLE "definition_variables" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "definition_variables" FORCE ROW LEVEL SECURITY;
ALTER TABLE "disable_overlays" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "disable_overlays" FORCE ROW LEVEL SECURITY;

CREATE POLICY "tenant_isolation" ON "definition_sources"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_isolation" ON "definition_variables"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_isolation" ON "disable_overlays"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "definition_sources", "definition_variables", "disable_overlays" TO gatehouse_app;
