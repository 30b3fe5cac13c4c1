-- Invitations (issue 11, item 15; docs/decisions/0030-invitations.md). An owner or admin invites an email with
-- a role; the person accepts with the link's secret, signed in as that email (or by creating the account
-- through the link). Only the sha256 of the secret is stored: the secret is shown once, to the inviter.
-- Pending means not accepted, not revoked and not expired; rows are never deleted (the list shows history).

CREATE TABLE "invitations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    -- Normalized (trimmed, NFC, lower-case), as users.email is: acceptance compares the two exactly.
    "email" TEXT NOT NULL,
    "role" "membership_role" NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by_id" UUID,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by_id" UUID,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "invitations_secret_hash_key" ON "invitations"("secret_hash");
CREATE INDEX "invitations_tenant_id_created_at_idx" ON "invitations"("tenant_id", "created_at");
CREATE INDEX "invitations_tenant_id_email_idx" ON "invitations"("tenant_id", "email");

ALTER TABLE "invitations" ADD CONSTRAINT "invitations_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "invitations" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "invitations" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_isolation" ON "invitations"
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);

-- No DELETE: revoking and accepting are updates, and the rows stay as the tenant's record.
GRANT SELECT, INSERT, UPDATE ON "invitations" TO gatehouse_app;

-- The one read before the tenant is known: an invitation by the sha256 of its secret, with its tenant's slug
-- and name (what the accept page shows). Read-only for gatehouse_auth.
GRANT SELECT ON "invitations" TO gatehouse_auth;
CREATE POLICY "auth_lookup" ON "invitations" FOR SELECT TO gatehouse_auth USING (true);

CREATE FUNCTION public.gh_invitation_by_secret(p_secret_hash bytea)
RETURNS TABLE (
  id uuid, tenant_id uuid, tenant_slug text, tenant_name text, email text, role public.membership_role,
  expires_at timestamptz, revoked_at timestamptz, accepted_at timestamptz
)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT i.id, i.tenant_id, t.slug, t.name, i.email, i.role, i.expires_at, i.revoked_at, i.accepted_at
    FROM public.invitations AS i
    JOIN public.tenants AS t ON t.id = i.tenant_id
   WHERE i.secret_hash = p_secret_hash;
$$;

REVOKE ALL ON FUNCTION public.gh_invitation_by_secret(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.gh_invitation_by_secret(bytea) TO gatehouse_app;

-- Hand the function to gatehouse_auth (as 20261130020000_auth_lookup_context does): CREATE on the schema for
-- the duration of this transaction only.
GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_invitation_by_secret(bytea) OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
