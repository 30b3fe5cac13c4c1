import { probeFailureClass, probeReportShape, probeState } from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';
import { isoDateTime, uuid } from '../common.schema';

// Probes (docs/decisions/0078-probe-queue.md): a worker reports whether the server it leased could
// be reached (handshake and ping), for the live lease it holds, like a snapshot: stored under the lease's
// workspace, server, fingerprint and principal, replacing the previous report.

export const probeView = z
  .object({
    id: uuid,
    leaseId: uuid,
    workspaceId: uuid,
    serverName: z.string(),
    definitionFingerprint: z.string(),
    principalUserId: uuid.nullable(),
    state: probeState,
    failureClass: probeFailureClass.nullable(),
    reason: z.string().nullable(),
    protocolVersion: z.string().nullable(),
    serverVersion: z.string().nullable(),
    probedAt: isoDateTime,
  })
  .meta({ title: 'ServerProbe' });

export const submitProbe = defineCommand({
  name: 'probes.submit',
  summary:
    'Report the connection state of the server a worker leased (reached and answered a ping, or the failure ' +
    'class why not), for the live lease it holds: replaces the last report of that server, fingerprint and principal',
  scope: 'snapshots:write',
  kind: 'mutation',
  input: z.strictObject({ leaseId: uuid, ...probeReportShape }),
  output: probeView,
  http: { method: 'POST', path: '/v1/leases/:leaseId/probe', successStatus: 201 },
  graphql: { field: 'submitProbe' },
  problems: ['not_found', 'lease_ended'],
  callers: ['worker'],
});
