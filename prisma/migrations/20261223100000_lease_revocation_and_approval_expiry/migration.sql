-- Leases that end when what they stand on changes (issue 14; docs/decisions/0071-ledger-events-revoke-leases.md,
-- 0072-approval-expiry-sweep.md).
--
-- 1. Every ledger event revokes, in its own transaction, the live leases its subject concerns (apps/api
--    appendLeaseChange -> libs/db revokeLeasesConcernedBy, under the tenant's row-level security, with the app
--    role's existing UPDATE grant on leases.revoked_at/revoked_reason). The one event written outside a tenant,
--    the operator's gateway-token revoke, does the same here, in the definer function's one statement.
-- 2. An approval's expiry is recorded once: the API's sweep marks `expiry_recorded_at` as it appends the
--    `approval_expired` event, in one transaction, so a second sweep (or another API process) writes nothing.

ALTER TABLE "approvals" ADD COLUMN "expiry_recorded_at" TIMESTAMPTZ(3);
-- The sweep's "expired and not yet recorded" scan.
CREATE INDEX "approvals_expires_at_idx" ON "approvals"("expires_at");
GRANT UPDATE ("expiry_recorded_at") ON "approvals" TO gatehouse_app;

-- The tenants with an approved decision whose expiry passed and is not yet recorded (the sweep visits only those,
-- never every tenant). Read as gatehouse_auth: ids only, no row of the approval leaves the function.
GRANT SELECT ("tenant_id", "decision", "expires_at", "revoked_at", "expiry_recorded_at") ON "approvals" TO gatehouse_auth;
CREATE POLICY "auth_lookup" ON "approvals" FOR SELECT TO gatehouse_auth USING (true);

CREATE FUNCTION public.gh_tenants_with_unrecorded_expiries(p_limit integer)
RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT DISTINCT a.tenant_id
    FROM public.approvals AS a
   WHERE a.decision = 'approved'
     AND a.expires_at <= now()
     AND a.revoked_at IS NULL
     AND a.expiry_recorded_at IS NULL
   ORDER BY a.tenant_id
   LIMIT greatest(p_limit, 0);
$$;

-- The operator's gateway-token revoke also revokes the leases the token holds, in every tenant, in the same
-- statement as the token and its ledger event. CREATE OR REPLACE keeps the owner (gatehouse_auth) and grants.
GRANT UPDATE ("revoked_at", "revoked_reason") ON "leases" TO gatehouse_auth;
GRANT SELECT ("released_at", "revoked_at") ON "leases" TO gatehouse_auth;
CREATE POLICY "auth_token_revoke" ON "leases" FOR UPDATE TO gatehouse_auth USING (true) WITH CHECK (true);

CREATE OR REPLACE FUNCTION public.gh_operator_revoke_gateway_token(p_id uuid)
RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  WITH revoked AS (
    UPDATE public.api_tokens AS t SET revoked_at = now()
     WHERE t.id = p_id AND t.tenant_id IS NULL AND t.revoked_at IS NULL
    RETURNING t.id
  ), appended AS (
    INSERT INTO public.revocation_events (tenant_id, kind, subject)
    SELECT NULL, 'token_revoked', jsonb_build_object('tokenIds', jsonb_build_array(r.id))
      FROM revoked AS r
    RETURNING 1
  ), leases_ended AS (
    UPDATE public.leases AS l SET revoked_at = now(), revoked_reason = 'token_revoked'
      FROM revoked AS r
     WHERE l.token_id = r.id AND l.released_at IS NULL AND l.revoked_at IS NULL
    RETURNING 1
  )
  -- A data-modifying CTE runs to completion whether or not the outer query reads it.
  SELECT count(*) > 0 FROM appended;
$$;

REVOKE ALL ON FUNCTION public.gh_tenants_with_unrecorded_expiries(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.gh_tenants_with_unrecorded_expiries(integer) TO gatehouse_app;

GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_tenants_with_unrecorded_expiries(integer) OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
