import type { Client } from '@modelcontextprotocol/client';

/**
 * The part of a connected SDK client that discovery uses. Whoever connects (the transports of this lib) hands the
 * SDK `Client` itself; tests and benches connect one over a real transport. Pages are asked for with `request`,
 * one list request per page: the v2 client's `listTools()` and siblings walk every page themselves when
 * given no cursor (their own page cap, none of ours), so discovery never calls them.
 */
export type ListingClient = Pick<Client, 'getServerCapabilities' | 'request'>;
