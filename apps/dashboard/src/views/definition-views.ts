import type {
  definitionSourceReading,
  definitionSourceSummary,
  definitionVariableState,
  disableOverlayView,
  EFFECTIVE_STATUSES,
  effectiveDefinitionsReading,
  httpProjectionView,
  keysOnlyView,
  redactedProjectionView,
  securityIdentityView,
  sourceEntryView,
  stdioProjectionView,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { ReadView } from './api-views';

// The server-definition shapes the dashboard reads from the API, as the API declares them (@gatehouse/contracts,
// decision 0063); the JSON parts (projections, identities, source entries) read as what they hold. None of them
// can carry a document, a variable value or an env/header value: the API sends redacted projections and "set or
// not".

export type {
  DefinitionTier,
  DefinitionVariableScope as VariableScope,
  EffectiveViewKind,
} from '@gatehouse/contracts';

export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];
export type KeysOnlyView = ReadView<z.output<typeof keysOnlyView>>;
export type StdioProjectionView = ReadView<z.output<typeof stdioProjectionView>>;
export type HttpProjectionView = ReadView<z.output<typeof httpProjectionView>>;
export type ProjectionView = ReadView<z.output<typeof redactedProjectionView>>;
export type SecurityIdentityView = ReadView<z.output<typeof securityIdentityView>>;
export type SourceRefView = SecurityIdentityView['source'];

/** A problem as the API reports it: a reason, a path of segments, and a few named extras; never a value. */
export type DefinitionProblemView = Readonly<Record<string, unknown>>;

export type EffectiveDefinitionsView = ReadView<z.output<typeof effectiveDefinitionsReading>>;
export type EffectiveEntryView = EffectiveDefinitionsView['entries'][number];
export type DefinitionSourceSummaryView = ReadView<z.output<typeof definitionSourceSummary>>;
export type SourceEntryView = ReadView<z.output<typeof sourceEntryView>>;
export type DefinitionSourceView = ReadView<z.output<typeof definitionSourceReading>>;
export type VariableStateView = ReadView<z.output<typeof definitionVariableState>>;
export type DisableOverlayView = ReadView<z.output<typeof disableOverlayView>>;
