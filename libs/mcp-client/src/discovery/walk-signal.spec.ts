import { getEventListeners } from 'node:events';
import { discoverCatalog } from './catalog-discovery';
import { connectInMemory, createEdgeServer, makeTools, type Connected } from './test-support/edge-servers';

// The walk's signal (the caller's, or the startup bound) is handed to every page request. The SDK adds an abort
// listener to the signal of each request it sends and never removes it, so a 100-page walk would leave 100
// closures on one signal: each page gets a signal of its own, linked to the walk's and unlinked after the page.

describe('the walk signal across pages', () => {
  let connected: Connected | undefined;
  afterEach(async () => {
    await connected?.close();
  });

  it('carries no listener per page once the walk is over', async () => {
    connected = await connectInMemory(createEdgeServer({ tools: makeTools(1_200), pageSize: 100 }));
    const walk = new AbortController();
    const discovery = await discoverCatalog(connected.client, { signal: walk.signal });
    expect(discovery.lists.tools).toEqual({ state: 'complete', pages: 12 });
    expect(getEventListeners(walk.signal, 'abort')).toHaveLength(0);
  });

  it('still ends the walk when its signal fires during a page', async () => {
    connected = await connectInMemory(createEdgeServer({ tools: makeTools(300), pageSize: 100 }));
    const walk = new AbortController();
    let pages = 0;
    const client = connected.client;
    const request = ((...args: Parameters<typeof client.request>) => {
      pages += 1;
      if (pages === 2) walk.abort();
      return client.request(...args);
    }) as typeof client.request;
    const discovery = await discoverCatalog(
      { getServerCapabilities: () => client.getServerCapabilities(), request },
      { signal: walk.signal },
    );
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toMatchObject({ state: 'failed', failure: { reason: 'aborted', page: 2 } });
  });
});
