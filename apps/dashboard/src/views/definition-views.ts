import type { ActivationView } from './approval-views';

// The server-definition shapes the dashboard reads from the API (libs/commands' definition-source.commands.ts
// declares them; the dashboard may not import it). Only what the Servers pages render. None of them can carry a
// document, a variable value or an env/header value: the API sends redacted projections and "set or not".

export type DefinitionTier = 'managed' | 'local' | 'project' | 'user' | 'plugin';
export type EffectiveStatus = 'resolved' | 'unresolved' | 'blocked' | 'disabled' | 'rejected';
export type EffectiveViewKind = 'workspace' | 'principal';

export interface SourceRefView {
  readonly tier: DefinitionTier;
  readonly origin: string;
}

/** Env and header keys only: `none` and `redacted` are different answers. */
export type KeysOnlyView = { readonly state: 'none' } | { readonly state: 'redacted'; readonly keys: readonly string[] };

export interface StdioProjectionView {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly commandLine: string;
  readonly cwd: string | null;
  readonly env: KeysOnlyView;
}

export interface HttpProjectionView {
  readonly kind: 'http';
  readonly url: string;
  readonly headers: KeysOnlyView;
  readonly headersHelper?: readonly string[];
  readonly principalHeader?: string;
}

export interface ProjectionView {
  readonly transport: StdioProjectionView | HttpProjectionView;
  readonly requiresTrustedWorkspace?: boolean;
  readonly options?: Readonly<Record<string, unknown>>;
}

export interface SecurityIdentityView {
  readonly key: string;
  readonly source: SourceRefView;
  readonly transport: 'stdio' | 'http';
  readonly display: string;
}

/** A problem as the API reports it: a reason, a path of segments, and a few named extras; never a value. */
export type DefinitionProblemView = Readonly<Record<string, unknown>>;

export interface EffectiveEntryView {
  readonly name: string;
  readonly status: EffectiveStatus;
  readonly reason: string | null;
  readonly source: SourceRefView;
  readonly shadowed: readonly { readonly source: SourceRefView; readonly state: string }[];
  readonly fingerprint: string | null;
  readonly identity: SecurityIdentityView | null;
  readonly projection: ProjectionView | null;
  readonly perUser: boolean | null;
  readonly problems: readonly DefinitionProblemView[];
  /** Whether it may run: approved, or why not (libs/activation, for this view). */
  readonly activation: ActivationView;
}

export interface EffectiveDefinitionsView {
  readonly workspaceId: string;
  readonly view: EffectiveViewKind;
  readonly entries: readonly EffectiveEntryView[];
  readonly problems: readonly DefinitionProblemView[];
  readonly overlayProblems: readonly DefinitionProblemView[];
}

export interface DefinitionSourceSummaryView {
  readonly id: string;
  readonly tier: DefinitionTier;
  readonly origin: string;
  readonly workspaceId: string | null;
  readonly ownerUserId: string | null;
  readonly readability: 'readable' | 'unreadable';
  readonly version: number;
  readonly updatedAt: string;
}

export interface SourceEntryView {
  readonly name: string;
  readonly state: 'valid' | 'malformed' | 'rejected';
  readonly projection?: ProjectionView;
  readonly variables?: readonly string[];
  readonly problems?: readonly DefinitionProblemView[];
  readonly transport?: string;
}

export interface DefinitionSourceView extends DefinitionSourceSummaryView {
  readonly problems: readonly DefinitionProblemView[];
  readonly entries: readonly SourceEntryView[];
}

export type VariableScope = 'tenant' | 'workspace' | 'user';

export interface VariableStateView {
  readonly scope: VariableScope;
  readonly workspaceId: string | null;
  readonly name: string;
  readonly set: boolean;
  readonly updatedAt: string | null;
}

export interface DisableOverlayView {
  readonly workspaceId: string;
  readonly scope: 'workspace' | 'user';
  readonly serverName: string;
  readonly disabled: boolean;
  readonly reason: string | null;
}
