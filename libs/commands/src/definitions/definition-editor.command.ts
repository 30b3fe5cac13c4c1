import {
  definitionSourcePreview,
  definitionSourceVersionList,
  definitionSourceVersionView,
  getDefinitionSourceVersionInput,
  listDefinitionSourceVersionsInput,
  previewDefinitionSourceInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

// The source editor's commands (decisions 0085 and 0086): what a put would do, and a source's
// stored versions with the diff between two. None returns a document or a value: entries as redacted
// projections.

export const previewDefinitionSource = defineCommand({
  name: 'definitions.sources.preview',
  summary:
    'What `definitions.sources.put` with this input would do, without doing it: entries added, changed and ' +
    'removed, their problems, approvals it would leave stale and requests it would open. Refuses what put refuses',
  scope: 'definitions:write',
  kind: 'query',
  input: previewDefinitionSourceInput,
  output: definitionSourcePreview,
  http: { method: 'POST', path: '/v1/definition-sources/preview' },
  graphql: { field: 'previewDefinitionSource' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'conflict'],
});

export const listDefinitionSourceVersions = defineCommand({
  name: 'definitions.sources.versions',
  summary: 'The stored versions of a definition source, newest first (counts and who wrote them; no content)',
  scope: 'definitions:read',
  kind: 'query',
  input: listDefinitionSourceVersionsInput,
  output: definitionSourceVersionList,
  http: { method: 'GET', path: '/v1/definition-sources/:sourceId/versions' },
  graphql: { field: 'definitionSourceVersions' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});

export const getDefinitionSourceVersion = defineCommand({
  name: 'definitions.sources.version',
  summary:
    'One stored version of a definition source as redacted projections, with what changed per entry since ' +
    'another version (by default the one before)',
  scope: 'definitions:read',
  kind: 'query',
  input: getDefinitionSourceVersionInput,
  output: definitionSourceVersionView,
  http: { method: 'GET', path: '/v1/definition-sources/:sourceId/versions/:version' },
  graphql: { field: 'definitionSourceVersion' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});
