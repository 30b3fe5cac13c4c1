import {
  catalogRefreshJobKey,
  catalogRefreshPayloadV2,
  catalogRefreshQueueOf,
} from './catalog-refresh-job.schema';
import { QueueName } from './queue-name';
import { parseQueuePayload } from './queue-payloads';

const job = {
  v: 2,
  tenantId: '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  workspaceId: '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a',
  serverName: 'everything',
  definitionFingerprint: 'v2:k1:0123abcd',
  principalUserId: null,
  pool: 'default',
  reason: 'approval_decided',
  requestedAt: '2026-01-01T00:00:00.000Z',
} as const;

describe('catalog refresh job v2', () => {
  it('is accepted by the queue parser beside v1', () => {
    expect(parseQueuePayload(QueueName.CatalogRefresh, job)).toEqual({ ok: true, payload: job });
  });

  it('is strict and names bad fields only', () => {
    const result = parseQueuePayload(QueueName.CatalogRefresh, { ...job, pool: 'Bad Pool', env: { K: 'v' } });
    expect(result).toEqual({ ok: false, reason: 'invalid_payload', fields: ['pool', '(root)'] });
    expect(catalogRefreshPayloadV2.safeParse({ ...job, principalUserId: undefined }).success).toBe(false);
  });
});

describe('catalogRefreshJobKey', () => {
  it('is the same for the same (workspace, server, fingerprint, principal) whatever else differs', () => {
    const other = {
      ...job,
      reason: 'manual',
      pool: 'other',
      requestedAt: '2026-02-01T00:00:00.000Z',
    } as const;
    expect(catalogRefreshJobKey(job)).toBe(catalogRefreshJobKey(other));
  });

  it('differs when any part differs, and never holds the colon BullMQ refuses', () => {
    const keys = new Set([
      catalogRefreshJobKey(job),
      catalogRefreshJobKey({ ...job, serverName: 'everything2' }),
      catalogRefreshJobKey({ ...job, definitionFingerprint: 'v2:k1:0123abce' }),
      catalogRefreshJobKey({ ...job, principalUserId: '3e9f4a5b-6c7d-4e8f-8a9b-1c2d3e4f5a6b' }),
      catalogRefreshJobKey({ ...job, workspaceId: '4f0a5b6c-7d8e-4f9a-8b0c-2d3e4f5a6b7c' }),
      // Dots inside parts cannot shift the boundary between server and fingerprint.
      catalogRefreshJobKey({ ...job, definitionFingerprint: 'a.b', serverName: 'c' }),
      catalogRefreshJobKey({ ...job, definitionFingerprint: 'a', serverName: 'b.c' }),
    ]);
    expect(keys.size).toBe(7);
    for (const key of keys) expect(key).not.toContain(':');
    expect(catalogRefreshJobKey(job).startsWith('catalog-refresh.')).toBe(true);
  });
});

describe('catalogRefreshQueueOf', () => {
  it("names the pool's queue under the frozen queue name", () => {
    expect(catalogRefreshQueueOf('default')).toBe('catalog-refresh.default');
  });
});
