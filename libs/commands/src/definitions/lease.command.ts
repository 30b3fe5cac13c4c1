import { admittedTransport, processAuthority } from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';
import { isoDateTime, uuid } from '../common.schema';
import { definitionServerName, definitionTier } from './definition-source.command';

// Transport leases (docs/decisions/0058-transport-leases.md and 0059-lease-holders.md). Only
// worker and gateway tokens lease: a worker in its own tenant, a gateway on a caller's behalf (the tenant is
// the workspace's). The issued lease is the one place secrets leave the API (materialized env and header
// values, in `transport`): the response goes to the holder alone, with `Cache-Control: no-store`, and nothing
// of it is logged or audited but ids, names and the fingerprint.

const LEASE_CALLERS = ['worker', 'gateway'] as const;

/**
 * The admitted transport description (libs/contracts `admittedTransport`, version 1) as a JSON object: the
 * surfaces carry it whole (GraphQL as a JSON scalar), and the refinement holds it to the strict contract, so a
 * field the contract does not know fails the response instead of reaching a holder.
 */
const admittedTransportObject = z
  .record(z.string(), z.unknown())
  .refine((value) => admittedTransport.safeParse(value).success, 'must be an admitted transport (v1)')
  .meta({ title: 'AdmittedTransport', description: 'libs/contracts admittedTransport v1 (holds secrets)' });

export const leaseView = z
  .object({
    id: uuid,
    tenantId: uuid,
    workspaceId: uuid,
    serverName: z.string(),
    /** The principal the lease is for; null: the workspace alone. */
    principalUserId: uuid.nullable(),
    /** The pool whose authority admitted the transport. */
    pool: z.string(),
    source: z.object({ tier: definitionTier, origin: z.string() }).meta({ title: 'LeaseSource' }),
    definitionFingerprint: z.string(),
    securityIdentity: z.string(),
    /** The approval activation matched. */
    approvalId: uuid,
    issuedAt: isoDateTime,
    /** The earliest of the lease TTL and the approval's expiry: renew before it. */
    expiresAt: isoDateTime,
    /** How to connect, with the checked addresses (http) or the process authority (stdio); holds secrets. */
    transport: admittedTransportObject,
    /**
     * What the holder re-checks immediately before it spawns a process (a stdio server or a header helper): the
     * pool's allowed roots, runAs and ceiling with the tenant's commands, and the env names a definition may set
     * (the pool's childEnvKeys narrowed by the tenant's HostPolicy). Null when nothing is spawned.
     */
    spawnRecheck: processAuthority.nullable(),
  })
  .meta({ title: 'Lease' });

export const leaseStateView = z
  .object({
    id: uuid,
    expiresAt: isoDateTime,
    renewedAt: isoDateTime.nullable(),
    releasedAt: isoDateTime.nullable(),
  })
  .meta({ title: 'LeaseState' });

export const issueLease = defineCommand({
  name: 'leases.issue',
  summary:
    'Lease a transport to one server of a workspace, for a principal or the workspace alone: activation, URL ' +
    "admission and the asking token's pool authority decided now; the response holds the secrets to connect",
  scope: 'leases:write',
  kind: 'mutation',
  input: z.strictObject({
    workspaceId: uuid,
    serverName: definitionServerName,
    /** Lease for this user (per-user entries, the gateway's caller); omitted: for the workspace alone. */
    principalUserId: uuid.optional(),
    /**
     * For a server that declares OAuth: the SHA-256 (base64url) of the access token the server just refused
     * (401), never the token. If it is still the stored one, the API refreshes it (once across its processes)
     * before leasing; a token someone already replaced is leased as it is.
     */
    refusedAccessTokenSha256: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256')
      .optional(),
  }),
  output: leaseView,
  http: { method: 'POST', path: '/v1/leases', successStatus: 201 },
  graphql: { field: 'issueLease' },
  revealsSecret: true,
  callers: LEASE_CALLERS,
});

export const renewLease = defineCommand({
  name: 'leases.renew',
  summary:
    'Extend a lease this token holds: refused once it was released, revoked or expired, or when activation no ' +
    'longer approves exactly what it was issued for',
  scope: 'leases:write',
  kind: 'mutation',
  input: z.strictObject({ leaseId: uuid }),
  output: leaseStateView,
  http: { method: 'POST', path: '/v1/leases/:leaseId/renew' },
  graphql: { field: 'renewLease' },
  callers: LEASE_CALLERS,
});

export const releaseLease = defineCommand({
  name: 'leases.release',
  summary: 'Give back a lease this token holds (idempotent: releasing it again answers the same)',
  scope: 'leases:write',
  kind: 'mutation',
  input: z.strictObject({ leaseId: uuid }),
  output: leaseStateView,
  http: { method: 'POST', path: '/v1/leases/:leaseId/release' },
  graphql: { field: 'releaseLease' },
  callers: LEASE_CALLERS,
});
