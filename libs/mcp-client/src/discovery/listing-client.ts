import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * The part of a connected SDK client that discovery uses. Whoever connects (the transports of this lib) hands the
 * SDK `Client` itself; tests and benches connect one over a real transport.
 */
export type ListingClient = Pick<
  Client,
  'getServerCapabilities' | 'listTools' | 'listPrompts' | 'listResources' | 'listResourceTemplates'
>;
