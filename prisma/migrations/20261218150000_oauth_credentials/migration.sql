-- Upstream OAuth (issue 15; docs/decisions/0056-oauth-refresh-once.md, 0061-oauth-credential-store.md).
--
-- oauth_credentials: one row per credential, keyed by subject (a user's own sign-in, or a workspace service
-- credential), the server's security identity, its canonical URL (the resource indicator) and the issuer, so a
-- shadowing definition cannot use another's sign-in and a changed issuer is another credential. The access and
-- refresh tokens are envelope ciphertexts (libs/crypto; AAD = table, column, row id, tenant), registered for key
-- rotation in libs/db/src/key-rotation/encrypted-columns.ts. `version` is the compare-and-swap version of
-- libs/oauth's TokenStore port: every write takes the next value of one sequence, so a version never repeats for
-- a key, not even after a delete and a new sign-in (no ABA).
--
-- oauth_clients: client registrations per issuer (pre-registered by an admin, or remembered dynamic
-- registrations); the client secret is an envelope ciphertext. A changed issuer finds no registration.

CREATE SEQUENCE "oauth_credential_versions" AS BIGINT;

CREATE TABLE "oauth_credentials" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "subject_kind" TEXT NOT NULL,
    -- `user:<id>` or `workspace:<id>`: one key per subject, so uniqueness needs no nullable columns.
    "subject" TEXT NOT NULL,
    "subject_user_id" UUID,
    "subject_workspace_id" UUID,
    "server_identity" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    -- active | refresh_in_flight | needs_sign_in (libs/oauth CredentialStatus).
    "status" TEXT NOT NULL,
    "access_token_ct" BYTEA,
    "refresh_token_ct" BYTEA,
    -- The access token's expiry (null: the server did not say, or no token).
    "expires_at" TIMESTAMPTZ(3),
    "scope" TEXT,
    -- Refreshes go to the endpoint the tokens came from, and only there.
    "token_endpoint" TEXT NOT NULL,
    "revocation_endpoint" TEXT,
    "client_id" TEXT NOT NULL,
    -- For refresh_in_flight: the fencing token of the holder that marked it (decimal).
    "refresh_fencing_token" TEXT,
    "version" BIGINT NOT NULL DEFAULT nextval('oauth_credential_versions'),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_credentials_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_credentials_subject_check" CHECK (
      ("subject_kind" = 'user' AND "subject_user_id" IS NOT NULL AND "subject_workspace_id" IS NULL
          AND "subject" = 'user:' || "subject_user_id"::text)
      OR ("subject_kind" = 'workspace' AND "subject_workspace_id" IS NOT NULL AND "subject_user_id" IS NULL
          AND "subject" = 'workspace:' || "subject_workspace_id"::text)
    ),
    CONSTRAINT "oauth_credentials_status_check" CHECK ("status" IN ('active', 'refresh_in_flight', 'needs_sign_in')),
    -- A credential that needs sign-in holds no token at all.
    CONSTRAINT "oauth_credentials_tokens_check" CHECK (
      ("status" = 'needs_sign_in' AND "access_token_ct" IS NULL AND "refresh_token_ct" IS NULL)
      OR ("status" <> 'needs_sign_in' AND "access_token_ct" IS NOT NULL)
    ),
    CONSTRAINT "oauth_credentials_fencing_check" CHECK (("status" = 'refresh_in_flight') = ("refresh_fencing_token" IS NOT NULL))
);

CREATE UNIQUE INDEX "oauth_credentials_identity_key" ON "oauth_credentials"("tenant_id", "subject", "server_identity", "resource", "issuer");

ALTER TABLE "oauth_credentials" ADD CONSTRAINT "oauth_credentials_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_credentials" ADD CONSTRAINT "oauth_credentials_subject_user_id_fkey" FOREIGN KEY ("subject_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_credentials" ADD CONSTRAINT "oauth_credentials_tenant_id_subject_workspace_id_fkey" FOREIGN KEY ("tenant_id", "subject_workspace_id") REFERENCES "workspaces"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "oauth_clients" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    -- pre_registered (an admin's) | dynamic (RFC 7591, remembered for this issuer).
    "kind" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_ct" BYTEA,
    "token_endpoint_auth_method" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oauth_clients_kind_check" CHECK ("kind" IN ('pre_registered', 'dynamic')),
    CONSTRAINT "oauth_clients_auth_method_check" CHECK ("token_endpoint_auth_method" IN ('none', 'client_secret_basic', 'client_secret_post')),
    CONSTRAINT "oauth_clients_secret_check" CHECK (("token_endpoint_auth_method" = 'none') = ("client_secret_ct" IS NULL))
);

CREATE UNIQUE INDEX "oauth_clients_tenant_id_issuer_kind_key" ON "oauth_clients"("tenant_id", "issuer", "kind");

ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tenant isolation, as for every tenant-scoped table (20261130010100_row_level_security): enabled AND forced.
ALTER TABLE "oauth_credentials" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "oauth_credentials" FORCE ROW LEVEL SECURITY;
ALTER TABLE "oauth_clients" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "oauth_clients" FORCE ROW LEVEL SECURITY;

CREATE POLICY "tenant_isolation" ON "oauth_credentials"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_isolation" ON "oauth_clients"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

GRANT SELECT, INSERT, UPDATE, DELETE ON "oauth_credentials", "oauth_clients" TO gatehouse_app;
GRANT USAGE ON SEQUENCE "oauth_credential_versions" TO gatehouse_app;
