// Public surface of @gatehouse/definitions (pure: no I/O, no process state, no framework).
export { resolveDefinitions } from './definitions-resolver';
export type { DefinitionSourceInput, ResolveInput, ResolveResult, ResolveView } from './definitions-resolver';
export type {
  ActiveEntry,
  BlockedEntry,
  DisabledEntry,
  EffectiveEntry,
  EntryStatus,
  RejectedEntry,
  ResolvedEntry,
  ShadowedEntry,
  SourceProblem,
  UnresolvedEntry,
  UnresolvedReason,
  ValueProblem,
} from './effective-entry';
export { materializedDefinitionOf } from './materialized-access';

export { TIERS, WORKSPACE_VIEW_TIERS, compareSources, isTier, tierRank } from './tier';
export type { SourceRef, Tier } from './tier';

export {
  checkDocumentText,
  decodeDefinitionDocument,
  decodeDefinitionValue,
  MAX_SERVERS_PER_DOCUMENT,
  UNREADABLE_REASONS,
} from './document-decoder';
export { findTooDeep, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH } from './document-limits.guard';
export { scanStrictJson } from './strict-json-scanner';
export type { StrictJsonProblem } from './strict-json-scanner';
export type { DocumentDecode, DocumentProblem, SourceProblemReason } from './document-decoder';
export { decodeServerEntry } from './definition-decoder';
export type { DecodedEntry, RejectedTransport } from './definition-decoder';
export { MAX_ARGUMENTS_PER_ENTRY, MAX_ENTRY_DEPTH, MAX_PROBLEMS_PER_ENTRY } from './decode-problem';
export type { EntryDecodeReason, EntryProblem, PathSegment } from './decode-problem';
export type {
  HttpTransportDefinition,
  KeyedTemplate,
  ServerDefinition,
  StdioTransportDefinition,
  TransportDefinition,
} from './definition-types';
export type { OAuthSettings } from './oauth-settings';
export { isValidServerName, MAX_SERVER_NAME_LENGTH } from './server-name';
export { parseTemplate } from './variable-template';
export type { Template, TemplatePart } from './variable-template';

export { materializeDefinition } from './variable-materializer';
export type {
  Materialization,
  MaterializedDefinition,
  MaterializedHttp,
  MaterializedKeyed,
  MaterializedStdio,
  MaterializedText,
  MaterializeProblem,
  Stretch,
  StretchOrigin,
  UnsetVariable,
  VariableScope,
  VariableUse,
  VariableValues,
} from './variable-materializer';

export {
  GATEHOUSE_TOKEN_PATTERN,
  isCredentialShapedName,
  isCredentialShapedLiteral,
  looksLikeGatehouseToken,
} from './secret-shape';
export { fingerprintDefinition, FINGERPRINT_VERSION } from './definition-fingerprint';
export type { FingerprintKey } from './definition-fingerprint';
export { diffReviewDigests, reviewDigestsOf } from './review-values-digest';
export type { KeyedValueDigest, ReviewDigests, ReviewSection, ValueChange } from './review-values-digest';
export { secretOriginOf } from './secret-origin';
export type { SecretOrigin } from './secret-origin';
export { securityIdentityOf } from './security-identity';
export type { SecurityIdentity, SecurityIdentityResult } from './security-identity';
export { canonicalizeHttpUrl, canonicalDefinitionUrl, formatCanonicalUrl } from './canonical-url';
export type { CanonicalHttpUrl, CanonicalUrlFailure, CanonicalUrlResult } from './canonical-url';
export { decidePrecedence } from './tier-precedence';
export type { PrecedenceDecision } from './tier-precedence';
export { checkDisableOverlay, overlayApplies } from './disable-overlay';
export type {
  DisableOverlay,
  DisableReason,
  OverlayCheck,
  OverlayProblem,
  OverlayScope,
} from './disable-overlay';
export { editableDocumentOf, editableKeyOf, hiddenKeyPosition } from './editable-document-redactor';
export { projectDefinition, visibleText } from './redacted-projection';
export type { HttpProjection, KeysOnly, RedactedProjection, StdioProjection } from './redacted-projection';
export { REDACTED, maskText, maskUrl, maskArgs } from './literal-masker';
export { escapeInvisible, hasInvisibleCharacter } from './invisible-character';
