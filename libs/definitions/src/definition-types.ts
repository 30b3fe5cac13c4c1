import type { OAuthSettings } from './oauth-settings';
import type { ServerOptions } from '@gatehouse/catalog';
import type { Template } from './variable-template';

/** A key (env variable name or header name) with its value as written. Declared order is kept. */
export interface KeyedTemplate {
  readonly key: string;
  readonly value: Template;
}

export interface StdioTransportDefinition {
  readonly kind: 'stdio';
  readonly command: Template;
  readonly args: readonly Template[];
  readonly env: readonly KeyedTemplate[];
  /** Absent means the stdio authority's allowed root, never the ambient process cwd. */
  readonly cwd: Template | null;
}

export interface HttpTransportDefinition {
  readonly kind: 'http';
  readonly url: Template;
  readonly headers: readonly KeyedTemplate[];
  /** An exact argv the host may run to obtain headers; never a shell line, never expanded. */
  readonly headersHelper: readonly string[] | null;
  readonly oauth: OAuthSettings | null;
  /** The header the gateway sends the calling principal under. */
  readonly principalHeader: string | null;
}

export type TransportDefinition = StdioTransportDefinition | HttpTransportDefinition;

/** One decoded server entry: what runs or where it connects, and the per-server options. */
export interface ServerDefinition {
  readonly transport: TransportDefinition;
  /** Deny-by-default in an untrusted workspace when true. */
  readonly requiresTrustedWorkspace: boolean;
  readonly options: ServerOptions;
}
