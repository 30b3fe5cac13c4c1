import { z } from 'zod';

// The revocation ledger on the wire (docs/decisions/0052-revocation-ledger.md): what the relay
// publishes over Redis and what `GET /v1/revocations?since=` returns. One schema for both, strict, so a
// holder that cannot read an event (a newer producer, a damaged message) knows it, and revalidates everything
// it holds instead of guessing.

/**
 * The kinds of event a change a lease depends on writes. An approval going stale has no kind of its own: the
 * write that makes it stale (a definition, variable or generation change) writes its kind (decision 0095).
 */
export const REVOCATION_KINDS = [
  'approval_revoked',
  'approval_expired',
  'definition_changed',
  'variable_changed',
  'overlay_changed',
  'workspace_trust_changed',
  'workspace_generation_changed',
  'host_policy_changed',
  'token_revoked',
  'member_changed',
  'oauth_signed_out',
] as const;

export const revocationKind = z.enum(REVOCATION_KINDS);
export type RevocationKind = z.infer<typeof revocationKind>;

const id = z.uuid();

/**
 * What the change touched. An absent member means "any": an event without `workspaceId` concerns every
 * workspace of its tenant (a managed source, the HostPolicy), one without `serverName` every server. Ids and
 * names only: never a secret, a value, a URL or an argv.
 */
export const revocationSubject = z.strictObject({
  workspaceId: id.optional(),
  serverName: z.string().min(1).max(200).optional(),
  approvalId: id.optional(),
  definitionSourceId: id.optional(),
  // Tokens whose leases go (a token revoked; a member removed or re-roled: that user's tokens).
  tokenIds: z.array(id).max(1000).optional(),
  // The principal whose leases go (a member removed or re-roled, a user's variable or overlay, a sign-out).
  userId: id.optional(),
});
export type RevocationSubject = z.infer<typeof revocationSubject>;

/** Which positions an event carries: its tenant's stream, or the whole ledger (platform callers). */
export const REVOCATION_STREAMS = ['tenant', 'platform'] as const;
export const revocationStream = z.enum(REVOCATION_STREAMS);
export type RevocationStream = z.infer<typeof revocationStream>;

export const revocationEvent = z.strictObject({
  // The event's position in the stream it was read from: gapless, so the next one a holder gets must be seq + 1.
  seq: z.number().int().min(1),
  // Null only for platform events (a gateway token revoked by the operator).
  tenantId: id.nullable(),
  kind: revocationKind,
  subject: revocationSubject,
  occurredAt: z.iso.datetime({ offset: true }),
});
export type RevocationEvent = z.infer<typeof revocationEvent>;

/**
 * Which ledger an announcement or a page belongs to: a digest of the database it is kept in (decision 0120). Two
 * deployments publishing under one Redis namespace (a shared Redis and the same REDIS_KEY_PREFIX, or parallel test
 * suites) would otherwise hand a holder another ledger's positions, which it would take for its own and then
 * skip its own events at those positions: a missed revocation.
 */
export const revocationLedgerId = z.string().regex(/^[0-9a-f]{32}$/);

/** An event as the relay announces it over Redis: the event and the ledger it is of. */
export const revocationAnnouncement = z.strictObject({
  ...revocationEvent.shape,
  ledger: revocationLedgerId,
});
export type RevocationAnnouncementMessage = z.infer<typeof revocationAnnouncement>;

export const REVOCATIONS_PAGE_MAX = 1000;

/**
 * An event as a page carries it: its position always, the rest as stored. A row the API cannot read (written by a
 * newer version, damaged) is passed on, not dropped, so the holder sees it, cannot read it with
 * `revocationEvent`, and revalidates everything it holds.
 */
export const revocationPageEntry = z.looseObject({ seq: z.number().int().min(1) });
export type RevocationPageEntry = z.infer<typeof revocationPageEntry>;

/** `GET /v1/revocations?since=&limit=`: events after `since` in the caller's stream, oldest first. */
export const revocationsPage = z.strictObject({
  stream: revocationStream,
  ledger: revocationLedgerId,
  events: z.array(revocationPageEntry).max(REVOCATIONS_PAGE_MAX),
  // Pass back as `since` to continue: the last event's seq, or `since` itself when there were none.
  next: z.number().int().min(0),
  // The stream's newest position when the page was read: `since=head` means "from now on".
  head: z.number().int().min(0),
  hasMore: z.boolean(),
});
export type RevocationsPage = z.infer<typeof revocationsPage>;
