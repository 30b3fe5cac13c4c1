-- Approvals and approval requests (issue 6, part 4). An approval binds to the exact identity it was decided for
-- (server name, source tier+origin, definition fingerprint, security identity, the principal for per-user
-- entries, the repository and workspace generation for sources outside managed/user): `identity_key` is the
-- `aid:v1:` hash of those fields (libs/activation). Nothing here is secret: projections are the redacted ones the
-- API already shows (secret values masked), so no column is encrypted.
--
-- Approvals are history: the app role may insert and revoke (UPDATE of revoked_at/revoked_by), never delete.

CREATE TYPE "approval_decision" AS ENUM ('approved', 'denied');
CREATE TYPE "approval_request_status" AS ENUM ('open', 'decided', 'superseded');

CREATE TABLE "approval_requests" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "identity_key" TEXT NOT NULL,
    -- = identity_key while open, NULL once closed: the unique key below allows one OPEN request per identity
    -- without a partial index (which schema.prisma cannot express).
    "open_key" TEXT,
    "server_name" TEXT NOT NULL,
    "source_tier" "definition_tier" NOT NULL,
    "source_origin" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    "security_identity" TEXT NOT NULL,
    "principal_user_id" UUID,
    "repository_identity" TEXT,
    "workspace_generation" INTEGER,
    "projection" JSONB NOT NULL,
    "previous_approval_id" UUID,
    "changes" JSONB NOT NULL DEFAULT '[]',
    "trigger" TEXT NOT NULL,
    "author_user_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "status" "approval_request_status" NOT NULL DEFAULT 'open',
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "closed_by" UUID,

    CONSTRAINT "approval_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approval_requests_open_key_check" CHECK (
      ("status" = 'open' AND "open_key" = "identity_key" AND "closed_at" IS NULL)
      OR ("status" <> 'open' AND "open_key" IS NULL AND "closed_at" IS NOT NULL)
    ),
    CONSTRAINT "approval_requests_identity_key_check" CHECK ("identity_key" ~ '^aid:v1:[0-9a-f]{64}$'),
    CONSTRAINT "approval_requests_origin_tier_check" CHECK ("source_origin" LIKE ("source_tier"::text || ':%')),
    CONSTRAINT "approval_requests_trigger_check" CHECK ("trigger" IN (
      'source_written', 'variable_changed', 'overlay_changed', 'generation_bumped', 'trust_changed',
      'lease_refused_pending', 'review_requested'
    ))
);

CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "request_id" UUID,
    "identity_key" TEXT NOT NULL,
    "server_name" TEXT NOT NULL,
    "source_tier" "definition_tier" NOT NULL,
    "source_origin" TEXT NOT NULL,
    "definition_fingerprint" TEXT NOT NULL,
    "security_identity" TEXT NOT NULL,
    "principal_user_id" UUID,
    "repository_identity" TEXT,
    "workspace_generation" INTEGER,
    -- The redacted projection that was reviewed: a later request diffs against it ("what changed").
    "projection" JSONB NOT NULL,
    "decision" "approval_decision" NOT NULL,
    "decided_by" UUID NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" UUID,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approvals_identity_key_check" CHECK ("identity_key" ~ '^aid:v1:[0-9a-f]{64}$'),
    CONSTRAINT "approvals_origin_tier_check" CHECK ("source_origin" LIKE ("source_tier"::text || ':%')),
    CONSTRAINT "approvals_revocation_check" CHECK (("revoked_at" IS NULL) = ("revoked_by" IS NULL)),
    CONSTRAINT "approvals_expiry_check" CHECK ("expires_at" IS NULL OR "expires_at" > "decided_at")
);

CREATE UNIQUE INDEX "approval_requests_tenant_id_workspace_id_open_key_key" ON "approval_requests"("tenant_id", "workspace_id", "open_key");
CREATE INDEX "approval_requests_tenant_id_status_opened_at_idx" ON "approval_requests"("tenant_id", "status", "opened_at");
CREATE INDEX "approval_requests_tenant_id_workspace_id_server_name_idx" ON "approval_requests"("tenant_id", "workspace_id", "server_name");
CREATE INDEX "approvals_tenant_id_workspace_id_server_name_idx" ON "approvals"("tenant_id", "workspace_id", "server_name");
CREATE INDEX "approvals_tenant_id_decided_at_idx" ON "approvals"("tenant_id", "decided_at");

ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_previous_approval_id_fkey" FOREIGN KEY ("previous_approval_id") REFERENCES "approvals"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_tenant_id_workspace_id_fkey" FOREIGN KEY ("tenant_id", "workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_principal_user_id_fkey" FOREIGN KEY ("principal_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "approval_requests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table (20261130010100_row_level_security): enabled AND forced.
ALTER TABLE "approval_requests" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "approval_requests" FORCE ROW LEVEL SECURITY;
ALTER TABLE "approvals" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "approvals" FORCE ROW LEVEL SECURITY;

CREATE POLICY "tenant_isolation" ON "approval_requests"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_isolation" ON "approvals"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE ON "approval_requests" TO gatehouse_app;
-- A decision, once recorded, is never rewritten: revoking is the only change the app role can make.
GRANT SELECT, INSERT ON "approvals" TO gatehouse_app;
GRANT UPDATE ("revoked_at", "revoked_by") ON "approvals" TO gatehouse_app;
