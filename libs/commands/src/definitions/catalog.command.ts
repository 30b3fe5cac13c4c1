import {
  catalogDocument,
  discoveryFailureClass,
  discoveryFailureReason,
  discoveryFailureView,
  workspaceCatalogServer,
  workspaceCatalogV1,
} from '@gatehouse/contracts';
import { z } from 'zod';
import { MAX_LONG_POLL_SECONDS, defineCommand } from '../command';
import { isoDateTime, uuid } from '../common.schema';

// Catalog snapshots (docs/decisions/0067-catalog-snapshots-and-refresh-jobs.md). A worker
// posts what it discovered of ONE server for the live lease it holds; the document is libs/contracts'
// catalogDocument (v1) of that one server, which carries no secret.

/** A snapshot document is bounded well inside the REST body limit (1 MiB). */
export const MAX_SNAPSHOT_DOCUMENT_BYTES = 768 * 1024;

/**
 * The catalog document as a JSON object: the surfaces carry it whole (GraphQL as a JSON scalar); the refinement
 * holds it to the strict contract and the size bound.
 */
const snapshotDocumentObject = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= MAX_SNAPSHOT_DOCUMENT_BYTES, 'document too large')
  .refine((value) => catalogDocument.safeParse(value).success, 'must be a catalog document (v1)')
  .meta({ title: 'CatalogSnapshotDocument', description: 'libs/contracts catalogDocument v1, one server' });

export const catalogSnapshotView = z
  .object({
    id: uuid,
    leaseId: uuid,
    workspaceId: uuid,
    serverName: z.string(),
    definitionFingerprint: z.string(),
    principalUserId: uuid.nullable(),
    protocolVersion: z.string(),
    serverVersion: z.string(),
    complete: z.boolean(),
    stale: z.boolean(),
    fetchedAt: isoDateTime,
    submittedAt: isoDateTime,
  })
  .meta({ title: 'CatalogSnapshot' });

export const submitCatalogSnapshot = defineCommand({
  name: 'catalog.submit',
  summary:
    'Post the catalog a worker discovered for the live lease it holds (one server, its fingerprint and ' +
    'principal): replaces the current snapshot of that server, fingerprint and principal at once',
  scope: 'snapshots:write',
  kind: 'mutation',
  input: z.strictObject({ leaseId: uuid, document: snapshotDocumentObject }),
  output: catalogSnapshotView,
  http: { method: 'POST', path: '/v1/leases/:leaseId/snapshot', successStatus: 201 },
  graphql: { field: 'submitCatalogSnapshot' },
  problems: ['not_found', 'lease_ended', 'snapshot_mismatch'],
  callers: ['worker'],
});

export const discoveryFailureRecordView = z
  .object({
    leaseId: uuid,
    workspaceId: uuid,
    serverName: z.string(),
    definitionFingerprint: z.string(),
    principalUserId: uuid.nullable(),
    failure: discoveryFailureView,
  })
  .meta({ title: 'CatalogDiscoveryFailure' });

/**
 * Discovery failures (docs/decisions/0142-discovery-failures-visible.md): a worker that could not discover the
 * server it leased reports why, for the live lease it holds, like a snapshot: stored under the lease's workspace,
 * server, fingerprint and principal, replacing the previous report; a later snapshot of the same key clears it.
 * Two closed words, never text: readers get the API's fixed sentence for the reason.
 */
export const reportDiscoveryFailure = defineCommand({
  name: 'catalog.reportFailure',
  summary:
    'Report why a worker could not discover the server it leased (the failure class and a fixed reason word), ' +
    'for the live lease it holds: the catalog shows it on the pending server until a snapshot of it is stored',
  scope: 'snapshots:write',
  kind: 'mutation',
  input: z.strictObject({
    leaseId: uuid,
    failureClass: discoveryFailureClass,
    reason: discoveryFailureReason,
  }),
  output: discoveryFailureRecordView,
  http: { method: 'POST', path: '/v1/leases/:leaseId/discovery-failure', successStatus: 201 },
  graphql: { field: 'reportDiscoveryFailure' },
  problems: ['not_found', 'lease_ended'],
  callers: ['worker'],
});

/**
 * The catalog document of the lease as a JSON object (GraphQL carries it as a JSON scalar); the refinement holds
 * it to the strict contract, so nothing the contract does not declare reaches a caller.
 */
const workspaceCatalogDocument = z
  .record(z.string(), z.unknown())
  .refine((value) => catalogDocument.safeParse(value).success, 'must be a catalog document (v1)')
  .meta({
    title: 'WorkspaceCatalogDocument',
    description: 'libs/contracts catalogDocument v1, every server',
  });

export const workspaceCatalogView = workspaceCatalogV1
  .extend({
    servers: z.array(workspaceCatalogServer.meta({ title: 'WorkspaceCatalogServer' })),
    document: workspaceCatalogDocument,
  })
  .meta({ title: 'WorkspaceCatalog' });

/**
 * The catalog lease (docs/decisions/0074-catalog-leases.md): what the caller's principal may
 * mount in one workspace now. People read their own; agent tokens and worker tokens the workspace alone, or
 * (worker and gateway tokens, acting for someone) the principal they name. Not an admin command: never over
 * admin MCP.
 */
export const getWorkspaceCatalog = defineCommand({
  name: 'catalog.get',
  summary:
    'The catalog of a workspace for the calling principal: the namespaced tools, prompts and resources of every ' +
    'server approved for it now, each with its identity, source, completeness, staleness and fetchedAt; ' +
    'approved servers not yet discovered are listed as pending_discovery',
  scope: 'catalog:read',
  kind: 'query',
  input: z.strictObject({
    workspaceId: uuid,
    /** Worker and gateway tokens only: read the catalog of this user (a member of the tenant). */
    principal: uuid.optional(),
  }),
  output: workspaceCatalogView,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/catalog' },
  graphql: { field: 'workspaceCatalog' },
  read: { etag: true, longPoll: { maxWaitSeconds: MAX_LONG_POLL_SECONDS } },
  problems: ['not_found', 'forbidden'],
  callers: ['session', 'user', 'agent', 'worker', 'gateway'],
});
