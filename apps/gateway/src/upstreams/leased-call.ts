import {
  isElicitationRefusal,
  type ClassifiedFailure,
  type ConnectionSupervisor,
  type ElicitationRefusal,
} from '@gatehouse/mcp-client';
import type { UpstreamKey, UpstreamPool } from './upstream-pool.js';

// One request (a tool call, a prompts/get, a resources/read) through the leased upstream of the key, and what a
// failure on the way reads as to the caller. Both the tools and the prompts/resources services go through here, so
// a refused lease, a revoked one, a lost connection and a failed request read the same on every surface, and a
// connection whose token was refused after its one fresh lease is let go the same way whatever the request was.

/** The server could not be leased or reached, or the request failed on the way: typed, content-free. */
export interface UpstreamUnavailable {
  readonly ok: false;
  readonly reason: 'upstream_unavailable';
  readonly server: string;
  readonly detail: string;
}

/**
 * The upstream is fine but needed the caller's answer, and the caller could not be asked (it declared no
 * elicitation, or the request is not one a caller is asked during): which of those, never the upstream's question.
 */
export interface InputUnavailable {
  readonly ok: false;
  readonly reason: 'input_unavailable';
  readonly server: string;
  readonly refusal: ElicitationRefusal;
}

/** The failures on the way every upstream request shares (the supervisor's words for them). */
type SharedFailure =
  | { readonly ok: false; readonly reason: 'not_connected' }
  | { readonly ok: false; readonly reason: 'call_failed'; readonly failure: ClassifiedFailure };
type SharedReason = SharedFailure['reason'];

/** A request's outcomes without the shared failures (a variant naming several reasons keeps the others). */
type Answered<Outcome> = Outcome extends { readonly ok: false; readonly reason: infer Reason }
  ? [Exclude<Reason, SharedReason>] extends [never]
    ? never
    : Omit<Outcome, 'reason'> & { readonly reason: Exclude<Reason, SharedReason> }
  : Outcome;

/**
 * Leases (or reuses) the key's upstream and makes the request on it; the request's own answers (its result, or a
 * refusal particular to it such as a tool's invalid arguments) come back as they are; a request that failed
 * because its caller could not be asked for the upstream's input as `input_unavailable`; everything else as
 * `upstream_unavailable` with a detail that names the class, never the upstream's words.
 */
export async function callLeasedUpstream<Outcome extends { readonly ok: boolean; readonly reason?: string }>(
  upstreams: UpstreamPool,
  key: UpstreamKey,
  request: (supervisor: ConnectionSupervisor) => Promise<Outcome>,
): Promise<Answered<Outcome> | UpstreamUnavailable | InputUnavailable> {
  const upstream = await upstreams.acquire(key);
  if (!upstream.ok)
    return unavailable(
      key.server,
      upstream.reason === 'lease_refused' ? `lease_${upstream.code}` : upstream.failureClass,
    );
  // Revocation is checked on every request against what the ledger told us: a dropped lease is never used.
  if (!upstream.held.live) return unavailable(key.server, 'revoked');
  const outcome = await request(upstream.supervisor);
  if (!isSharedFailure(outcome)) return outcome as Answered<Outcome>;
  if (outcome.reason === 'not_connected') return unavailable(key.server, 'not_connected');
  // Our own refusal of its elicitation failed the request (a 2026 upstream's input_required): not the upstream's.
  if (isElicitationRefusal(outcome.failure.reason))
    return { ok: false, reason: 'input_unavailable', server: key.server, refusal: outcome.failure.reason };
  // Its token refused after the one fresh lease this connection may have: the next request leases again.
  if (outcome.failure.failureClass === 'auth') await upstreams.discard(key, upstream.supervisor);
  return unavailable(key.server, outcome.failure.failureClass);
}

export function unavailable(server: string, detail: string): UpstreamUnavailable {
  return { ok: false, reason: 'upstream_unavailable', server, detail };
}

function isSharedFailure(outcome: {
  readonly ok: boolean;
  readonly reason?: string;
}): outcome is SharedFailure {
  return !outcome.ok && (outcome.reason === 'not_connected' || outcome.reason === 'call_failed');
}
