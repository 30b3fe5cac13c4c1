import type { CatalogServerView, WorkspaceCatalogView } from '../views/catalog-views';

// What is wrong with an approved server's catalog, in the fixed words the pages show: read from the catalog
// lease (decision 0074), never guessed from a definition. A server may have several at once (stale and
// incomplete); the first listed is the worst. A pending server whose last discovery failed is `discovery_failed`,
// with the reason the worker reported (decision 0142): a closed word and the API's fixed sentence for it.

export type CatalogTrouble = 'discovery_failed' | 'pending_discovery' | 'omitted' | 'stale' | 'incomplete';

export type DiscoveryFailureOfServer = NonNullable<CatalogServerView['discoveryFailure']>;

export const CATALOG_TROUBLE_WORDS: Readonly<Record<CatalogTrouble, { label: string; detail: string }>> = {
  discovery_failed: {
    label: 'Discovery failed',
    detail:
      'Approved, but the last discovery of this exact definition failed: agents get none of its tools until one succeeds.',
  },
  pending_discovery: {
    label: 'Not discovered yet',
    detail: 'Approved, but no worker has listed this exact definition yet: agents get none of its tools.',
  },
  omitted: {
    label: 'Left out',
    detail: 'Discovered, but left out of the catalog because the catalog reached its size bound.',
  },
  stale: {
    label: 'Stale',
    detail: 'The last refresh failed: agents get the last good listing.',
  },
  incomplete: {
    label: 'Incomplete',
    detail: 'Some listing did not reach its last page: agents get part of what the server offers.',
  },
};

export function catalogTroubles(server: CatalogServerView): readonly CatalogTrouble[] {
  const troubles: CatalogTrouble[] = [];
  if (server.state === 'pending_discovery')
    return server.discoveryFailure ? ['discovery_failed'] : ['pending_discovery'];
  if (server.state === 'omitted') troubles.push('omitted');
  if (server.stale) troubles.push('stale');
  if (!server.complete) troubles.push('incomplete');
  return troubles;
}

export interface ServerInTrouble {
  readonly serverName: string;
  readonly troubles: readonly CatalogTrouble[];
  /** Why its discovery failed, with `discovery_failed` only. */
  readonly discoveryFailure?: DiscoveryFailureOfServer;
}

/** The reason in one line: `protocol_version_refused: the server refused every protocol version we speak`. */
export function discoveryFailureText(failure: DiscoveryFailureOfServer): string {
  return `${failure.reason}: ${failure.detail}`;
}

/** The servers of one catalog with anything wrong, in the catalog's (name) order. */
export function serversInTrouble(catalog: WorkspaceCatalogView): readonly ServerInTrouble[] {
  return catalog.servers
    .map((server) => ({
      serverName: server.name,
      troubles: catalogTroubles(server),
      ...(server.discoveryFailure ? { discoveryFailure: server.discoveryFailure } : {}),
    }))
    .filter((entry) => entry.troubles.length > 0);
}
