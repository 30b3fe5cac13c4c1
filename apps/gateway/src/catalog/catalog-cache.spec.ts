import type { CatalogTool, WorkspaceCatalogV1 } from '@gatehouse/contracts';
import { CatalogCache, type CatalogReader } from './catalog-cache.js';
import type { CatalogRead } from './workspace-catalog.client.js';

// The catalog cache on a clock of its own: fresh within the TTL; past it, the held policy is still served while
// ONE revalidation runs behind it (a warm tools/call never waits for the API, decision 0111), up to twice the
// TTL; older than that, or dropped by a ledger event, the next call waits for the API's answer.

const WORKSPACE = '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a';
const TENANT = '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const TARGET = { tenantId: TENANT, workspaceId: WORKSPACE, principal: null };
const source = { tier: 'managed' as const, origin: 'managed:gateway' };

function catalogWith(toolName: string): WorkspaceCatalogV1 {
  const tool: CatalogTool = {
    name: `mcp__a__${toolName}`,
    remoteName: toolName,
    inputSchema: { type: 'object' },
    axes: { effect: 'write', egress: true },
    axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
    contentOrigin: 'external',
    source,
  };
  return {
    v: 1,
    workspaceId: WORKSPACE,
    principalUserId: null,
    complete: true,
    stale: false,
    servers: [],
    document: {
      v: 1,
      complete: true,
      stale: false,
      servers: [
        {
          identity: { server: 'a', protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
          source,
          contentOrigin: 'external',
          contentOriginDeclared: false,
          complete: true,
          stale: false,
          fetchedAt: '2026-12-01T12:00:00.000Z',
          tools: [tool],
          prompts: [],
          resources: [],
          resourceTemplates: [],
          diagnostics: [],
        },
      ],
      diagnostics: [],
    },
  } as WorkspaceCatalogV1;
}

/** A reader whose answers the test settles by hand, counting the reads. */
function controlledReader() {
  const waiting: ((answer: CatalogRead) => void)[] = [];
  const read: CatalogReader = () => new Promise<CatalogRead>((resolve) => waiting.push(resolve));
  return {
    read,
    reads: () => waiting.length,
    answer: (index: number, answer: CatalogRead) => waiting[index]?.(answer),
  };
}

const names = async (cache: CatalogCache, read: CatalogReader) => {
  const answer = await cache.policyFor(TARGET, read);
  return answer.ok ? answer.policy.tools.map((t) => t.name) : answer.status;
};

describe('CatalogCache', () => {
  let now = 0;
  let cache: CatalogCache;
  let reader: ReturnType<typeof controlledReader>;

  beforeEach(async () => {
    now = 0;
    cache = new CatalogCache({ ttlMs: 5_000, now: () => now });
    reader = controlledReader();
    const first = names(cache, reader.read);
    reader.answer(0, { ok: true, catalog: catalogWith('one'), etag: '"e1"' });
    expect(await first).toEqual(['mcp__a__one']);
  });

  it('serves the held policy within the TTL without reading', async () => {
    now = 4_999;
    expect(await names(cache, reader.read)).toEqual(['mcp__a__one']);
    expect(reader.reads()).toBe(1);
  });

  it('past the TTL, serves the held policy at once and revalidates once behind it', async () => {
    now = 6_000;
    expect(await names(cache, reader.read)).toEqual(['mcp__a__one']);
    expect(await names(cache, reader.read)).toEqual(['mcp__a__one']);
    expect(reader.reads()).toBe(2);
    reader.answer(1, { ok: true, catalog: catalogWith('two'), etag: '"e2"' });
    await new Promise((done) => setImmediate(done));
    expect(await names(cache, reader.read)).toEqual(['mcp__a__two']);
    expect(reader.reads()).toBe(2);
  });

  it('a failed revalidation keeps the held policy only up to twice the TTL, then waits for the API', async () => {
    now = 6_000;
    expect(await names(cache, reader.read)).toEqual(['mcp__a__one']);
    reader.answer(1, { ok: false, status: 503 });
    await new Promise((done) => setImmediate(done));
    now = 10_001;
    const waited = names(cache, reader.read);
    expect(reader.reads()).toBe(3);
    reader.answer(2, { ok: false, status: 503 });
    expect(await waited).toBe(503);
  });

  it('a policy dropped by a ledger event is read again before it is served', async () => {
    cache.invalidateWorkspace(WORKSPACE);
    const waited = names(cache, reader.read);
    expect(reader.reads()).toBe(2);
    reader.answer(1, { ok: true, catalog: catalogWith('two'), etag: '"e2"' });
    expect(await waited).toEqual(['mcp__a__two']);
  });
});
