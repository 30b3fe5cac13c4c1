import { z } from 'zod';
import { discoveryFailureView } from '../catalog/discovery-failure.schema';
import { tokenKind } from './access.schema';
import { cursor, isoDateTime, limit, page, uuid } from './common.schema';
import { definitionServerName } from './definition.schema';
import { probeFailureClass, probeState } from './probe.schema';

// The answer of `servers.status` (decision 0099): what a person may know about one server's
// connections in a workspace. The probe a worker last reported (decision 0078), why its last discovery failed
// (decision 0142) and who holds a live lease now. Declared here so the dashboard's server page reads it with the command's own schema (decision 0063).
// Nothing of a lease's transport is in it (no address, env, header or token): a holder is named by its token
// and pool.

export const serverStatusInput = z.strictObject({
  workspaceId: uuid,
  serverName: definitionServerName,
  /** Pages the lease holders (newest issued first). */
  cursor: cursor.optional(),
  limit,
});

/** The connection state a worker last reported for one principal (any fingerprint: the newest report). */
export const serverProbeStatus = z
  .object({
    /** Null: the workspace alone; otherwise the caller's own view (approved per user). */
    principalUserId: uuid.nullable(),
    state: probeState,
    failureClass: probeFailureClass.nullable(),
    /** A fixed word from the client (`startup_timeout`, `connection_failed`, ...), with `failed` only. */
    reason: z.string().nullable(),
    /** The definition the probe leased: compare with the current one to tell a report about an older one. */
    definitionFingerprint: z.string(),
    protocolVersion: z.string().nullable(),
    serverVersion: z.string().nullable(),
    probedAt: isoDateTime,
  })
  .meta({ title: 'ServerProbeStatus' });

/**
 * Why a worker's last discovery of the server failed, for one principal (any fingerprint: the newest report; a
 * snapshot of the same fingerprint deletes it). Two closed words and the API's fixed sentence, never text.
 */
export const serverDiscoveryFailureStatus = z
  .object({
    /** Null: the workspace alone; otherwise the caller's own view (approved per user). */
    principalUserId: uuid.nullable(),
    /** The definition the discovery leased: compare with the current one to tell a report about an older one. */
    definitionFingerprint: z.string(),
    failure: discoveryFailureView,
  })
  .meta({ title: 'ServerDiscoveryFailureStatus' });

/** One live lease (not released, revoked or expired), named by what holds it. */
export const leaseHolderView = z
  .object({
    leaseId: uuid,
    token: z
      .object({
        id: uuid,
        kind: tokenKind,
        /** The token's name in this tenant; null for the platform's gateway tokens (no tenant's to name). */
        name: z.string().nullable(),
      })
      .meta({ title: 'LeaseHolderToken' }),
    pool: z.string(),
    /** Null: for the workspace alone. */
    principal: z
      .object({ userId: uuid, displayName: z.string().nullable() })
      .meta({ title: 'LeasePrincipal' })
      .nullable(),
    definitionFingerprint: z.string(),
    issuedAt: isoDateTime,
    renewedAt: isoDateTime.nullable(),
    expiresAt: isoDateTime,
  })
  .meta({ title: 'LeaseHolder' });

export const serverStatusView = z
  .object({
    workspaceId: uuid,
    serverName: z.string(),
    /** At most two: the workspace alone's report and the caller's own, newest report of each. */
    probes: z.array(serverProbeStatus),
    /** At most two, like `probes`: the workspace alone's last discovery failure and the caller's own. */
    discoveryFailures: z.array(serverDiscoveryFailureStatus),
    /** Owners and admins see every principal's leases; others the workspace alone's and their own. */
    leaseHolders: page(leaseHolderView),
  })
  .meta({ title: 'ServerStatus' });
