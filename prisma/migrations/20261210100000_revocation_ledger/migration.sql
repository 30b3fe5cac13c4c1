-- The revocation ledger (issue 14, item 2; docs/decisions/0052-revocation-ledger.md): an outbox of every change a
-- lease depends on. A use case appends its event in the SAME transaction as the change (libs/db
-- appendRevocationEvent), so the event exists exactly when the change does. After the commit a relay sequences
-- and publishes it over Redis; holders catch up from GET /v1/revocations?since=, which reads this table.
--
-- Two positions, both gapless and assigned only after commit, by gh_revocations_sequence under one advisory
-- lock, in the order the sequencer first sees the committed rows:
--   seq         the row's place in the whole ledger (the platform stream: gateway tokens read it)
--   tenant_seq  its place in its tenant's ledger (the stream tenant-bound tokens read)
-- A bigserial alone would not do: a rolled-back transaction leaves a hole, and a transaction that took a lower
-- number can commit after a higher one, so a reader at cursor N would never see it. Positions assigned after
-- commit make "the next event must be N+1" a sound gap check for holders.
--
-- tenant_id is NULL only for platform events (a gateway token revoked by the operator); like gateway tokens,
-- such rows match no tenant policy. No foreign key to tenants: the ledger is a record of what happened and is
-- read by position; an event must not vanish with a tenant's rows.

CREATE TABLE "revocation_events" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID,
    "kind" TEXT NOT NULL,
    -- Ids and names only (workspace, approval, server, token, user, source): never a secret, never a value.
    "subject" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seq" BIGINT,
    "tenant_seq" BIGINT,
    "sequenced_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "revocation_events_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "revocation_events_seq_key" ON "revocation_events"("seq");
CREATE UNIQUE INDEX "revocation_events_tenant_id_tenant_seq_key" ON "revocation_events"("tenant_id", "tenant_seq");
-- The sequencer's "seq IS NULL ORDER BY id" and the relay's "published_at IS NULL ORDER BY seq".
CREATE INDEX "revocation_events_seq_id_idx" ON "revocation_events"("seq", "id");
CREATE INDEX "revocation_events_published_at_seq_idx" ON "revocation_events"("published_at", "seq");

-- Tenant isolation (as 20261130010100_row_level_security): enabled AND forced. The app reads and appends its
-- tenant's rows; it never updates or deletes one (positions and publication are the definer functions' job).
ALTER TABLE "revocation_events" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "revocation_events" FORCE ROW LEVEL SECURITY;
CREATE POLICY "tenant_read" ON "revocation_events" FOR SELECT
  USING ("tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY "tenant_append" ON "revocation_events" FOR INSERT
  WITH CHECK (
    "tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid
    AND "seq" IS NULL AND "tenant_seq" IS NULL AND "sequenced_at" IS NULL AND "published_at" IS NULL
  );

GRANT SELECT, INSERT ON "revocation_events" TO gatehouse_app;
GRANT USAGE ON SEQUENCE "revocation_events_id_seq" TO gatehouse_app;

-- gatehouse_auth (owner of the definer functions below) reads every row, writes only the position and
-- publication columns, and appends only platform token revocations (the operator's gateway-token revoke).
GRANT SELECT, INSERT ON "revocation_events" TO gatehouse_auth;
GRANT UPDATE ("seq", "tenant_seq", "sequenced_at", "published_at") ON "revocation_events" TO gatehouse_auth;
GRANT USAGE ON SEQUENCE "revocation_events_id_seq" TO gatehouse_auth;
CREATE POLICY "auth_lookup" ON "revocation_events" FOR SELECT TO gatehouse_auth USING (true);
CREATE POLICY "auth_sequence" ON "revocation_events" FOR UPDATE TO gatehouse_auth USING (true) WITH CHECK (true);
CREATE POLICY "auth_platform_append" ON "revocation_events" FOR INSERT TO gatehouse_auth
  WITH CHECK ("tenant_id" IS NULL AND "kind" = 'token_revoked' AND "seq" IS NULL);

-- Gives the next committed, unsequenced rows (at most p_limit, oldest first) their positions; returns how many.
-- One sequencer at a time (a transaction-level advisory lock; the call is one statement, so the lock ends with
-- it): each run sees the previous run's commit, so positions never repeat and never skip.
CREATE FUNCTION public.gh_revocations_sequence(p_limit integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
  v_count integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7413205001);
  WITH pending AS (
    SELECT e.id, e.tenant_id
      FROM public.revocation_events AS e
     WHERE e.seq IS NULL
     ORDER BY e.id
     LIMIT greatest(p_limit, 0)
  ), numbered AS (
    SELECT p.id,
           (SELECT coalesce(max(x.seq), 0) FROM public.revocation_events AS x)
             + row_number() OVER (ORDER BY p.id) AS seq,
           CASE WHEN p.tenant_id IS NULL THEN NULL ELSE
             (SELECT coalesce(max(y.tenant_seq), 0) FROM public.revocation_events AS y
               WHERE y.tenant_id = p.tenant_id)
             + row_number() OVER (PARTITION BY p.tenant_id ORDER BY p.id)
           END AS tenant_seq
      FROM pending AS p
  )
  UPDATE public.revocation_events AS e
     SET seq = n.seq, tenant_seq = n.tenant_seq, sequenced_at = now()
    FROM numbered AS n
   WHERE e.id = n.id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END;
$$;

-- Sequenced rows no relay has marked published yet, in position order (the relay's work list).
CREATE FUNCTION public.gh_revocations_unpublished(p_limit integer)
RETURNS TABLE (
  seq bigint, tenant_seq bigint, tenant_id uuid, kind text, subject jsonb, created_at timestamptz
)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT e.seq, e.tenant_seq, e.tenant_id, e.kind, e.subject, e.created_at
    FROM public.revocation_events AS e
   WHERE e.published_at IS NULL AND e.seq IS NOT NULL
   ORDER BY e.seq
   LIMIT greatest(p_limit, 0);
$$;

-- Marks every sequenced row up to p_through published (the relay calls it after Redis took them).
CREATE FUNCTION public.gh_revocations_mark_published(p_through bigint)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
  v_count integer;
BEGIN
  UPDATE public.revocation_events AS e SET published_at = now()
   WHERE e.published_at IS NULL AND e.seq IS NOT NULL AND e.seq <= p_through;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END;
$$;

-- The platform stream after a position (gateway tokens: every tenant's events and the platform's own).
CREATE FUNCTION public.gh_revocations_since(p_since bigint, p_limit integer)
RETURNS TABLE (
  seq bigint, tenant_seq bigint, tenant_id uuid, kind text, subject jsonb, created_at timestamptz
)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT e.seq, e.tenant_seq, e.tenant_id, e.kind, e.subject, e.created_at
    FROM public.revocation_events AS e
   WHERE e.seq > p_since
   ORDER BY e.seq
   LIMIT greatest(p_limit, 0);
$$;

-- The newest position of the platform stream (0 when empty): where a new platform holder starts.
CREATE FUNCTION public.gh_revocations_head()
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
  SELECT coalesce(max(e.seq), 0) FROM public.revocation_events AS e;
$$;

-- The operator's gateway-token revoke now writes its ledger event in the same statement (same transaction).
-- CREATE OR REPLACE keeps the owner (gatehouse_auth) and the grants of 20261130010100_row_level_security.
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
  )
  SELECT count(*) > 0 FROM appended;
$$;

REVOKE ALL ON FUNCTION public.gh_revocations_sequence(integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_revocations_unpublished(integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_revocations_mark_published(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_revocations_since(bigint, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.gh_revocations_head() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.gh_revocations_sequence(integer) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_revocations_unpublished(integer) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_revocations_mark_published(bigint) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_revocations_since(bigint, integer) TO gatehouse_app;
GRANT EXECUTE ON FUNCTION public.gh_revocations_head() TO gatehouse_app;

GRANT CREATE ON SCHEMA public TO gatehouse_auth;
ALTER FUNCTION public.gh_revocations_sequence(integer) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_revocations_unpublished(integer) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_revocations_mark_published(bigint) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_revocations_since(bigint, integer) OWNER TO gatehouse_auth;
ALTER FUNCTION public.gh_revocations_head() OWNER TO gatehouse_auth;
REVOKE CREATE ON SCHEMA public FROM gatehouse_auth;
