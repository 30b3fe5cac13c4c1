import {
  definitionSourceList,
  definitionSourceReading,
  definitionVariableList,
  effectiveDefinitionsReading,
} from '@gatehouse/contracts';
import type {
  DefinitionSourceSummaryView,
  DefinitionSourceView,
  EffectiveDefinitionsView,
  EffectiveViewKind,
  VariableScope,
  VariableStateView,
} from '../views/definition-views';
import { callApi, type ApiResult } from './api-client';

// The reads of the Servers pages, one function per API command (libs/commands' definition-source.command.ts),
// each answer parsed with its schema from @gatehouse/contracts (projections and identities read as what they
// hold, so a page never meets a projection of another shape).

export function getEffectiveDefinitions(
  workspaceId: string,
  view: EffectiveViewKind,
): Promise<ApiResult<EffectiveDefinitionsView>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/effective-definitions`,
    query: { view },
    answer: effectiveDefinitionsReading,
  });
}

export function listDefinitionSources(
  workspaceId: string,
): Promise<ApiResult<{ items: readonly DefinitionSourceSummaryView[] }>> {
  return callApi({
    method: 'GET',
    path: '/v1/definition-sources',
    query: { workspaceId },
    answer: definitionSourceList,
  });
}

export function getDefinitionSource(sourceId: string): Promise<ApiResult<DefinitionSourceView>> {
  return callApi({
    method: 'GET',
    path: `/v1/definition-sources/${encodeURIComponent(sourceId)}`,
    answer: definitionSourceReading,
  });
}

export function listDefinitionVariables(
  scope: VariableScope,
  workspaceId: string,
): Promise<ApiResult<{ items: readonly VariableStateView[] }>> {
  return callApi({
    method: 'GET',
    path: '/v1/definition-variables',
    query: { scope, workspaceId: scope === 'workspace' ? workspaceId : undefined },
    answer: definitionVariableList,
  });
}
