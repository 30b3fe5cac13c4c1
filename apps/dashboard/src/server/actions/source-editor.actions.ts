'use server';

import {
  definitionSourceList,
  definitionSourcePreview,
  definitionSourceReading,
  putDefinitionSourceInput,
} from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import type { z } from 'zod';
import { refuseUnless } from '../action-guard';
import { callApi } from '../api-client';
import { invalidInputProblem, type ApiProblem } from '../api-problem';

// The source editor's calls (docs/architecture/definitions.md): the save preview (the API's dry run of the
// put) and the save. Called from the editor with the document as a value; each asks again who is calling (a
// server action is reachable by a direct POST), checks the input's shape, and hands back the API's answer or
// its problem. A refused save for a version conflict also hands back the stored version, so the editor can
// show both.

export type SourceWriteInput = z.input<typeof putDefinitionSourceInput>;
export type SourcePreview = z.output<typeof definitionSourcePreview>;

export interface StoredVersion {
  readonly version: number;
  readonly updatedAt: string;
  readonly editableDocument: Record<string, unknown> | null;
}

export type PreviewAnswer =
  | { readonly ok: true; readonly preview: SourcePreview }
  | { readonly ok: false; readonly problem: ApiProblem; readonly stored: StoredVersion | null };

export type SaveAnswer =
  | {
      readonly ok: true;
      readonly message: string;
      readonly version: number;
      /** The stored document as the editor shows it: what was typed (a new secret, say) is not kept in the page. */
      readonly editableDocument: Record<string, unknown> | null;
    }
  | { readonly ok: false; readonly problem: ApiProblem; readonly stored: StoredVersion | null };

function checked(input: unknown): { ok: true; input: SourceWriteInput } | { ok: false; problem: ApiProblem } {
  const parsed = putDefinitionSourceInput.safeParse(input);
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    problem: invalidInputProblem(
      parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: 'is not what the editor sends',
      })),
    ),
  };
}

export async function previewSourceAction(input: unknown): Promise<PreviewAnswer> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return { ok: false, problem: refusal, stored: null };
  const body = checked(input);
  if (!body.ok) return { ...body, stored: null };
  const result = await callApi({
    answer: definitionSourcePreview,
    method: 'POST',
    path: '/v1/definition-sources/preview',
    body: body.input,
  });
  if (result.ok) return { ok: true, preview: result.data };
  const stored = result.problem.code === 'conflict' ? await storedVersionOf(body.input) : null;
  return { ok: false, problem: result.problem, stored };
}

/** The source the write targets as stored now (after a conflict), found by its origin among the readable ones. */
async function storedVersionOf(input: SourceWriteInput): Promise<StoredVersion | null> {
  const list = await callApi({
    answer: definitionSourceList,
    method: 'GET',
    path: '/v1/definition-sources',
    query: { workspaceId: input.workspaceId },
  });
  if (!list.ok) return null;
  const match = list.data.items.find((item) => {
    if (item.tier !== input.tier) return false;
    if (input.tier === 'managed' || input.tier === 'plugin')
      return item.origin === `${input.tier}:${input.name}`;
    if (input.tier === 'project' || input.tier === 'local') return item.workspaceId === input.workspaceId;
    return true;
  });
  if (match === undefined) return null;
  const stored = await callApi({
    answer: definitionSourceReading,
    method: 'GET',
    path: `/v1/definition-sources/${encodeURIComponent(match.id)}`,
  });
  if (!stored.ok) return null;
  return {
    version: stored.data.version,
    updatedAt: stored.data.updatedAt,
    editableDocument: stored.data.editableDocument,
  };
}

export async function saveSourceAction(input: unknown): Promise<SaveAnswer> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return { ok: false, problem: refusal, stored: null };
  const body = checked(input);
  if (!body.ok) return { ...body, stored: null };
  const result = await callApi({
    answer: definitionSourceReading,
    method: 'PUT',
    path: '/v1/definition-sources',
    body: body.input,
  });
  if (!result.ok) {
    const stored = result.problem.code === 'conflict' ? await storedVersionOf(body.input) : null;
    return { ok: false, problem: result.problem, stored };
  }
  refresh();
  const count = result.data.entries.length;
  return {
    ok: true,
    version: result.data.version,
    editableDocument: result.data.editableDocument,
    message: `Saved ${result.data.origin} as version ${result.data.version}: ${count} ${count === 1 ? 'server' : 'servers'}.`,
  };
}
