// Public surface of @gatehouse/catalog (pure). This issue puts the strict readers of the per-server options here;
// the catalog issue (13d) adds tool naming, the per-listing application of the options and catalog documents.
export { readAllowTools } from './allow-tools-reader';
export { readToolAxes, TOOL_EFFECTS, IRREVERSIBILITIES } from './tool-axes-reader';
export type { ToolAxes, ToolAxis, ToolEffect, Irreversibility } from './tool-axes-reader';
export { readToolFaces } from './tool-faces-reader';
export type { ToolFaces, ToolFace, ToolPathTarget, ToolRenderHints, ToolRuleFace } from './tool-faces-reader';
export { readContentOrigin, CONTENT_ORIGINS } from './content-origin-reader';
export type { ContentOrigin, DeclaringPlane } from './content-origin-reader';
export { readPrincipalHeader, isHeaderName } from './principal-header-reader';
export { headerOwnerOf, isProtocolOwnedHeader, maySetHeader } from './protocol-headers';
export type { HeaderOwner } from './protocol-headers';
export {
  readStartupTimeoutMs,
  STARTUP_TIMEOUT_MIN_MS,
  STARTUP_TIMEOUT_MAX_MS,
} from './startup-timeout-reader';
export { readElicitation } from './elicitation-reader';
export { readServerOptions, SERVER_OPTION_NAMES } from './server-options-reader';
export type {
  ServerOptions,
  ServerOptionName,
  ServerOptionRefusal,
  ServerOptionsRead,
} from './server-options-reader';
export { MAX_OPTION_NAME_LENGTH } from './option-refusal';
export type { OptionRead, OptionRefusal, OptionRefusalReason, OptionPath } from './option-refusal';
export { isPlainRecord } from './plain-data';
export {
  baseName,
  hashedName,
  mintNames,
  sanitizeSegment,
  serverSegment,
  MCP_NAME_BUDGET,
  MCP_NAME_PATTERN,
  MCP_NAME_PREFIX,
  MCP_NAME_SEPARATOR,
  MAX_SERVER_SEGMENT_LENGTH,
} from './mcp-name-minter';
export type { BaseName, MintedNames, NameCollision, NameRequest } from './mcp-name-minter';
export { REMOTE_TOOL_NAME_PATTERN, toolNameProblem } from './tool-name.guard';
export { foldToolAxes } from './tool-axes-fold';
export type { FoldedToolAxes } from './tool-axes-fold';
export { checkToolFace, TOOL_FAMILIES } from './tool-face-validator';
export type { ToolFaceCheck, ToolFaceFault, ToolFamily } from './tool-face-validator';
export { buildServerCatalog } from './server-catalog-builder';
export { applyCatalogOptions } from './catalog-options-applier';
export type { CatalogOptions, UnnamedServerCatalog } from './catalog-options-applier';
export type {
  JsonObject,
  ListedPrompt,
  ListedResource,
  ListedResourceTemplate,
  ListedTool,
  ServerListing,
} from './server-catalog-builder';
export { assembleCatalogDocument } from './catalog-document-assembler';
export { indexCatalogTools, sameCatalogIdentity } from './catalog-identity';
export type { CatalogToolRoute } from './catalog-identity';
export { buildWorkspaceCatalog } from './workspace-catalog-builder';
export type {
  ApprovedCatalogServer,
  ChosenCatalogSnapshot,
  WorkspaceCatalogInput,
} from './workspace-catalog-builder';
