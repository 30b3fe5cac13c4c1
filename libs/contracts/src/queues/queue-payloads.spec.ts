import { catalogRefreshJobId } from './catalog-refresh-payload.schema';
import { QUEUE_NAMES, QueueName, isQueueName } from './queue-name';
import { parseQueuePayload } from './queue-payloads';

const valid = {
  v: 1,
  requestId: '0f8b3c1e-6a4f-4f6e-9a59-3f1d2c4b5a61',
  tenantId: '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  workspaceId: '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a',
  serverName: 'github',
  reason: 'manual',
};

describe('QueueName', () => {
  it('is frozen and lists every queue', () => {
    expect(Object.isFrozen(QueueName)).toBe(true);
    expect(QUEUE_NAMES).toEqual(['catalog-refresh', 'probe']);
    expect(isQueueName('catalog-refresh')).toBe(true);
    expect(isQueueName('catalog_refresh')).toBe(false);
  });
});

describe('parseQueuePayload', () => {
  it('accepts a valid v1 payload', () => {
    expect(parseQueuePayload(QueueName.CatalogRefresh, valid)).toEqual({ ok: true, payload: valid });
  });

  it('refuses an unknown version', () => {
    expect(parseQueuePayload(QueueName.CatalogRefresh, { ...valid, v: 3 })).toEqual({
      ok: false,
      reason: 'unsupported_version',
      fields: ['v'],
    });
    expect(parseQueuePayload(QueueName.CatalogRefresh, 'not an object')).toMatchObject({
      reason: 'unsupported_version',
    });
  });

  it('names the bad fields, never their values', () => {
    const result = parseQueuePayload(QueueName.CatalogRefresh, {
      ...valid,
      tenantId: 'tenant-secret-name',
      extra: true,
    });
    expect(result).toEqual({ ok: false, reason: 'invalid_payload', fields: ['tenantId', '(root)'] });
    expect(JSON.stringify(result)).not.toContain('tenant-secret-name');
  });
});

describe('catalogRefreshJobId', () => {
  it('derives the idempotency key from the request id, without the colon BullMQ refuses', () => {
    expect(catalogRefreshJobId(valid)).toBe(`catalog-refresh.${valid.requestId}`);
    expect(catalogRefreshJobId(valid)).not.toContain(':');
  });
});
