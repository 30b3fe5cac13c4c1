import { catalogDocument } from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';
import { isoDateTime, uuid } from '../common.schemas';

// Catalog snapshots (issue 14 items 3 and 4; docs/decisions/0067-catalog-snapshots-and-refresh-jobs.md). A worker
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
