// Public surface of @gatehouse/catalog (pure). This issue puts the strict readers of the per-server options here;
// the catalog issue adds tool naming and catalog documents.
export { readAllowTools } from './allow-tools.reader';
export { readToolAxes, TOOL_EFFECTS, IRREVERSIBILITIES } from './tool-axes.reader';
export type { ToolAxes, ToolAxis, ToolEffect, Irreversibility } from './tool-axes.reader';
export { readToolFaces } from './tool-faces.reader';
export type { ToolFaces, ToolFace, ToolPathTarget, ToolRenderHints, ToolRuleFace } from './tool-faces.reader';
export { readContentOrigin, CONTENT_ORIGINS } from './content-origin.reader';
export type { ContentOrigin, DeclaringPlane } from './content-origin.reader';
export { readPrincipalHeader, isHeaderName } from './principal-header.reader';
export { headerOwnerOf, isProtocolOwnedHeader, maySetHeader } from './protocol-headers';
export type { HeaderOwner } from './protocol-headers';
export {
  readStartupTimeoutMs,
  STARTUP_TIMEOUT_MIN_MS,
  STARTUP_TIMEOUT_MAX_MS,
} from './startup-timeout.reader';
export { readElicitation } from './elicitation.reader';
export { readServerOptions, SERVER_OPTION_NAMES } from './server-options.reader';
export type {
  ServerOptions,
  ServerOptionName,
  ServerOptionRefusal,
  ServerOptionsRead,
} from './server-options.reader';
export { MAX_OPTION_NAME_LENGTH } from './option-refusal';
export type { OptionRead, OptionRefusal, OptionRefusalReason, OptionPath } from './option-refusal';
export { isPlainRecord } from './plain-data';
