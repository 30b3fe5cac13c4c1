import type { CatalogServerView, WorkspaceCatalogView } from '../views/catalog-views';
import { catalogTroubles, discoveryFailureText, serversInTrouble } from './catalog-trouble';

const discovered: CatalogServerView = {
  name: 'everything',
  state: 'discovered',
  source: { tier: 'managed', origin: 'managed:worker' },
  definitionFingerprint: 'sha256:abc',
  discoveredFor: 'workspace',
  identity: { server: 'everything', protocolVersion: '2025-11-25', serverVersion: '2.0.0' },
  complete: true,
  stale: false,
  fetchedAt: '2026-12-01T10:00:00.000Z',
};

describe('catalogTroubles', () => {
  it('finds nothing wrong with a complete, fresh, discovered server', () => {
    expect(catalogTroubles(discovered)).toEqual([]);
  });

  it('names a server pending discovery by that alone (it is not complete because it has no listing)', () => {
    expect(
      catalogTroubles({
        ...discovered,
        state: 'pending_discovery',
        complete: false,
        identity: null,
        fetchedAt: null,
        discoveredFor: null,
      }),
    ).toEqual(['pending_discovery']);
  });

  it('names a pending server whose discovery failed by that, and keeps the reason for the pages', () => {
    const failure = {
      failureClass: 'protocol' as const,
      reason: 'protocol_version_refused' as const,
      detail: 'the server refused every protocol version we speak',
      at: '2026-12-02T12:00:00.000Z',
    };
    const pending = {
      ...discovered,
      state: 'pending_discovery' as const,
      complete: false,
      identity: null,
      fetchedAt: null,
      discoveredFor: null,
      discoveryFailure: failure,
    };
    expect(catalogTroubles(pending)).toEqual(['discovery_failed']);
    expect(serversInTrouble({ servers: [pending] } as unknown as WorkspaceCatalogView)).toEqual([
      { serverName: 'everything', troubles: ['discovery_failed'], discoveryFailure: failure },
    ]);
    expect(discoveryFailureText(failure)).toBe(
      'protocol_version_refused: the server refused every protocol version we speak',
    );
  });

  it('lists every trouble of a discovered server, worst first', () => {
    expect(catalogTroubles({ ...discovered, stale: true, complete: false })).toEqual(['stale', 'incomplete']);
    expect(catalogTroubles({ ...discovered, state: 'omitted' })).toEqual(['omitted']);
  });
});

describe('serversInTrouble', () => {
  it('keeps only the servers with a trouble, in the catalog order', () => {
    const catalog = {
      servers: [
        { ...discovered, name: 'a' },
        { ...discovered, name: 'b', stale: true },
        { ...discovered, name: 'c', complete: false },
      ],
    } as unknown as WorkspaceCatalogView;
    expect(serversInTrouble(catalog)).toEqual([
      { serverName: 'b', troubles: ['stale'] },
      { serverName: 'c', troubles: ['incomplete'] },
    ]);
  });
});
