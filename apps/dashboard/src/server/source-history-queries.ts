import { definitionSourceVersionList, definitionSourceVersionView } from '@gatehouse/contracts';
import type { z } from 'zod';
import { callApi, type ApiResult } from './api-client';

// The reads of a source's history (definitions.sources.versions and definitions.sources.version), each answer
// parsed with its schema from @gatehouse/contracts. Entries come as redacted projections: no value to show.

export type SourceVersionList = z.output<typeof definitionSourceVersionList>;
export type SourceVersionView = z.output<typeof definitionSourceVersionView>;

export function listSourceVersions(sourceId: string): Promise<ApiResult<SourceVersionList>> {
  return callApi({
    method: 'GET',
    path: `/v1/definition-sources/${encodeURIComponent(sourceId)}/versions`,
    answer: definitionSourceVersionList,
  });
}

export function getSourceVersion(
  sourceId: string,
  version: number,
  against?: number,
): Promise<ApiResult<SourceVersionView>> {
  return callApi({
    method: 'GET',
    path: `/v1/definition-sources/${encodeURIComponent(sourceId)}/versions/${version}`,
    query: { against },
    answer: definitionSourceVersionView,
  });
}
