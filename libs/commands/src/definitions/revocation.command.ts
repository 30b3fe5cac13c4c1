import { REVOCATIONS_PAGE_MAX, revocationPageEntry, revocationsPage } from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';

// The revocation ledger's catch-up read (docs/decisions/0052-revocation-ledger.md, 0053 and
// 0065-revocations-catch-up-endpoint.md). Holders (workers, gateways) read it after every reconnect of their
// Redis subscriber, on a gap and periodically; owners and admins may read their tenant's stream too. A tenant
// caller reads its tenant's stream (positions `tenant_seq`), a gateway the platform stream (positions `seq`).
// Not offered over admin MCP: it is plumbing for lease holders and names token and user ids, nothing an agent
// needs.

/** A stream position: whole, 0 or more (0 reads from the start). A position past the head is `bad_cursor`. */
const position = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const REVOCATIONS_PAGE_DEFAULT = 100;

/**
 * A page entry as a JSON object (libs/contracts `revocationPageEntry`: its position, the rest as stored): GraphQL
 * carries it whole as a JSON scalar, so both surfaces hand a holder the same event to judge.
 */
const pageEntryObject = z
  .record(z.string(), z.unknown())
  .refine((value) => revocationPageEntry.safeParse(value).success, 'must carry its position (seq)')
  .meta({
    title: 'RevocationPageEntry',
    description: 'libs/contracts revocationEvent, or a row it cannot read',
  });

const revocationsPageView = z
  .strictObject({ ...revocationsPage.shape, events: z.array(pageEntryObject).max(REVOCATIONS_PAGE_MAX) })
  .meta({ title: 'RevocationsPage' });

export const listRevocations = defineCommand({
  name: 'revocations.list',
  summary:
    "Revocation events after a position in the caller's stream, oldest first (the tenant's stream; the platform " +
    'stream for gateway tokens): what lease holders catch up from after a reconnect',
  scope: 'revocations:read',
  kind: 'query',
  input: z.strictObject({
    since: position,
    limit: z.coerce.number().int().min(1).max(REVOCATIONS_PAGE_MAX).default(REVOCATIONS_PAGE_DEFAULT),
  }),
  output: revocationsPageView,
  http: { method: 'GET', path: '/v1/revocations' },
  graphql: { field: 'revocations' },
  callers: ['session', 'user', 'worker', 'gateway'],
  problems: ['bad_cursor'],
});
