import { z } from 'zod';
import { uuid } from './common.schema';

// The answer of `catalog.refresh` (decision 0077), declared here so the dashboard's "refresh now"
// reads it with the schema libs/commands declares the command with (decision 0063).

export const catalogRefreshView = z
  .object({
    /** `enqueued`: a new job waits; `collapsed`: the same job (same key) was already waiting or running. */
    outcome: z.enum(['enqueued', 'collapsed']),
    workspaceId: uuid,
    serverName: z.string(),
    principalUserId: uuid.nullable(),
    /** The definition fingerprint the job discovers (activation's, now). */
    definitionFingerprint: z.string(),
    /** The pool whose queue holds the job. */
    pool: z.string(),
    reason: z.enum(['manual', 'list_changed']),
  })
  .meta({ title: 'CatalogRefresh' });
