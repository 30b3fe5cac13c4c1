-- Tenant HostPolicy (issue 6, part 1): one row per tenant; it can only narrow the operator's ceiling, which is
-- process config (WORKER_POOLS), never a table. Values are not secret (argv prefixes, CIDRs, origins).

CREATE TABLE "host_policies" (
    "tenant_id" UUID NOT NULL,
    "stdio_commands" JSONB NOT NULL DEFAULT '[]',
    "header_helpers" JSONB NOT NULL DEFAULT '[]',
    "private_cidrs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "trace_context_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "four_eyes" BOOLEAN NOT NULL DEFAULT false,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "host_policies_pkey" PRIMARY KEY ("tenant_id")
);

ALTER TABLE "host_policies" ADD CONSTRAINT "host_policies_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table (20261130010100_row_level_security): enabled AND forced.
ALTER TABLE "host_policies" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "host_policies" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "host_policies"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "host_policies" TO gatehouse_app;
