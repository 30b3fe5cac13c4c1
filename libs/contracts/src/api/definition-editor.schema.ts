import { z } from 'zod';
import { definitionTier, putDefinitionSourceInput } from './definition.schema';
import { isoDateTime, uuid } from './common.schema';

// The source editor (decisions 0085 and 0086): a dry run of a write, and a source's versions
// with the diff between two of them. Like every definitions output, nothing here carries a document value:
// entries are redacted projections (or their problems), approvals and requests are named by ids and names.

const json = z.record(z.string(), z.unknown());

export const ENTRY_CHANGES = ['added', 'changed', 'removed', 'unchanged'] as const;
export const entryChange = z.enum(ENTRY_CHANGES);

/** Exactly what a put takes: the preview answers what that put would do. */
export const previewDefinitionSourceInput = putDefinitionSourceInput;

const viewRef = {
  workspaceId: uuid,
  workspaceName: z.string(),
  serverName: z.string(),
  /** The user the approval or request is for; null: the workspace alone. */
  principalUserId: uuid.nullable(),
};

export const definitionSourcePreview = z
  .object({
    tier: definitionTier,
    origin: z.string(),
    /** The stored version the write replaces; null: it creates the source. */
    currentVersion: z.number().int().nullable(),
    /** The version the write stores; null: the document is the stored one, so the write changes nothing. */
    nextVersion: z.number().int().nullable(),
    entries: z.array(
      z
        .object({
          name: z.string(),
          change: entryChange,
          /** The entry as it would be stored (removed entries: as it was). */
          state: z.enum(['valid', 'malformed', 'rejected']).nullable(),
          problems: z.array(json),
        })
        .meta({ title: 'DefinitionSourcePreviewEntry' }),
    ),
    /** Source problems of the document as it would be stored. */
    problems: z.array(json),
    /** Approvals in force now that the write would leave stale (or otherwise not approved). */
    staleApprovals: z.array(
      z.object({ ...viewRef, becomes: z.string() }).meta({ title: 'PreviewStaleApproval' }),
    ),
    /** Approval requests the write would open, or that are already open for what it leaves. */
    requests: z.array(
      z
        .object({ ...viewRef, outcome: z.enum(['opened', 'already_open']) })
        .meta({ title: 'PreviewApprovalRequest' }),
    ),
  })
  .meta({ title: 'DefinitionSourcePreview' });

export const listDefinitionSourceVersionsInput = z.strictObject({ sourceId: uuid });

export const definitionSourceVersionSummary = z
  .object({
    version: z.number().int(),
    entries: z.number().int(),
    problems: z.number().int(),
    writtenBy: uuid.nullable(),
    writtenByName: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ title: 'DefinitionSourceVersionSummary' });

export const definitionSourceVersionList = z
  .object({
    sourceId: uuid,
    origin: z.string(),
    currentVersion: z.number().int(),
    /** Newest first; a source written before versions were stored lists its current version only. */
    items: z.array(definitionSourceVersionSummary),
  })
  .meta({ title: 'DefinitionSourceVersionList' });

export const getDefinitionSourceVersionInput = z.strictObject({
  sourceId: uuid,
  version: z.coerce.number().int().min(1),
  /** The version to compare with; default the one before (none for version 1). */
  against: z.coerce.number().int().min(1).optional(),
});

export const definitionSourceVersionView = z
  .object({
    sourceId: uuid,
    origin: z.string(),
    version: z.number().int(),
    against: z.number().int().nullable(),
    createdAt: isoDateTime,
    /** Entries of this version as projected (the source view's entry shape). */
    entries: z.array(json),
    /** Per entry name, what changed from `against` to `version`, with both sides as projected. */
    changes: z.array(
      z
        .object({
          name: z.string(),
          change: entryChange,
          before: json.nullable(),
          after: json.nullable(),
        })
        .meta({ title: 'DefinitionSourceVersionChange' }),
    ),
  })
  .meta({ title: 'DefinitionSourceVersion' });
