-- The audit chain's link computed in the database (docs/decisions/0100-lease-issuance-audit-link-in-database.md),
-- so a hot write path (lease issuance) appends its audit row in the statement that writes what it records and
-- holds the tenant's audit head only inside Postgres, never across a round trip to the API.
--
-- audit_event_hash_v1 is decision 0010's encoding v1, byte for byte what apps/api computeAuditHash hashes:
-- sha256(prev_hash || field...), each field a presence byte (0x00 null, 0x01 present) then, when present, a
-- 4-byte big-endian byte length (int4send) and the UTF-8 bytes. `data` is the canonical JSON text the caller
-- computed (canonicalJson), as the JS path hashes it. The audit int-spec proves it equal to the JS hash over
-- generated rows and the pinned vector; the verifier (JS) checks every row whichever side computed it.
-- Pure (no table read), SECURITY INVOKER, so it needs nothing revoked from PUBLIC.
CREATE FUNCTION public.audit_event_hash_v1(
  p_prev_hash bytea, p_tenant_id uuid, p_seq bigint, p_occurred_at timestamptz, p_actor_type text, p_actor_id text,
  p_token_kind text, p_action text, p_target_type text, p_target_id text, p_outcome text, p_data text)
RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
  SELECT sha256(p_prev_hash || string_agg(
           CASE WHEN f.value IS NULL THEN '\x00'::bytea
                ELSE '\x01'::bytea || int4send(octet_length(convert_to(f.value, 'UTF8')))
                     || convert_to(f.value, 'UTF8') END,
           ''::bytea ORDER BY f.n))
    FROM unnest(ARRAY[
           'gatehouse/audit-event/v1',
           p_tenant_id::text,
           p_seq::text,
           -- ISO 8601 UTC with milliseconds, as Date.prototype.toISOString writes it.
           to_char(p_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           p_actor_type, p_actor_id, p_token_kind, p_action, p_target_type, p_target_id, p_outcome, p_data
         ]) WITH ORDINALITY AS f(value, n)
$$;

-- Appends one event to the current tenant's chain (app.tenant_id) as its next link and answers it: locks the
-- head (held to commit; already held when the caller locked it earlier in the transaction, as lease writers do
-- first, decision 0071), reads the database clock under the lock (occurred_at grows with seq, truncated to the
-- millisecond the column stores, so what is hashed is what is stored), inserts the row and moves the head.
-- SECURITY INVOKER: the app role's own grants and row-level security (audit_events SELECT + INSERT,
-- audit_heads of its tenant) bound it, exactly as the JS append. A tenant without a head yet raises
-- no_data_found and writes nothing: the caller creates the head in its own transaction and tries again.
CREATE FUNCTION public.audit_append_v1(
  p_id uuid, p_actor_type text, p_actor_id text, p_token_kind text, p_action text, p_target_type text,
  p_target_id text, p_outcome text, p_data text)
RETURNS TABLE (link_seq bigint, link_hash bytea)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
  v_head record;
  v_at timestamptz;
  v_hash bytea;
BEGIN
  SELECT h.tenant_id, h.seq + 1 AS next_seq, h.hash INTO v_head
    FROM public.audit_heads AS h
   WHERE h.tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
     FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit_append_v1: the tenant has no audit head' USING ERRCODE = 'no_data_found';
  END IF;
  v_at := date_trunc('milliseconds', clock_timestamp());
  v_hash := public.audit_event_hash_v1(v_head.hash, v_head.tenant_id, v_head.next_seq, v_at, p_actor_type,
    p_actor_id, p_token_kind, p_action, p_target_type, p_target_id, p_outcome, p_data);
  INSERT INTO public.audit_events
    (id, tenant_id, seq, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id, outcome,
     data, prev_hash, hash)
  VALUES
    (p_id, v_head.tenant_id, v_head.next_seq, v_at, p_actor_type, p_actor_id, p_token_kind, p_action,
     p_target_type, p_target_id, p_outcome, p_data::jsonb, v_head.hash, v_hash);
  UPDATE public.audit_heads AS h SET seq = v_head.next_seq, hash = v_hash, updated_at = v_at
   WHERE h.tenant_id = v_head.tenant_id;
  RETURN QUERY SELECT v_head.next_seq, v_hash;
END
$$;
