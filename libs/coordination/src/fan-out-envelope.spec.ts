import { z } from 'zod';
import { defineEventTopic } from './event-topic';
import { decodeLiveMessage, decodeLogEntry, decodePayload } from './fan-out-envelope';

const topic = defineEventTopic({ name: 'revocations', schema: z.object({ leaseId: z.string() }) });

describe('decodeLiveMessage', () => {
  it('splits id, prev and the payload, which may itself contain newlines', () => {
    expect(decodeLiveMessage('5-1\n5-0\n{"leaseId":"a\\nb"}\n')).toEqual({
      id: '5-1',
      prev: '5-0',
      data: '{"leaseId":"a\\nb"}\n',
    });
  });

  it.each(['', 'garbage', '5-1\n{"x":1}', 'x-1\n5-0\n{}', '5-1\nnope\n{}'])('refuses %j', (message) => {
    expect(decodeLiveMessage(message)).toBeNull();
  });
});

describe('decodeLogEntry', () => {
  it('reads the prev and data fields in any order', () => {
    expect(decodeLogEntry(['7-0', ['data', '{}', 'prev', '6-3']])).toEqual({
      id: '7-0',
      prev: '6-3',
      data: '{}',
    });
  });

  it('keeps an entry without our fields, so it can be reported and skipped', () => {
    expect(decodeLogEntry(['7-0', ['other', 'x', 'prev', 'not-an-id']])).toEqual({
      id: '7-0',
      prev: null,
      data: null,
    });
  });
});

describe('decodePayload', () => {
  it('returns the parsed event', () => {
    expect(decodePayload(topic, { id: '1-0', prev: '0-0', data: '{"leaseId":"l1"}' })).toEqual({
      ok: true,
      event: { id: '1-0', payload: { leaseId: 'l1' } },
    });
  });

  it('reports broken JSON, a missing payload and schema mismatches without echoing the payload', () => {
    expect(decodePayload(topic, { id: '1-0', prev: null, data: '{"leaseId":' })).toEqual({
      ok: false,
      invalid: { topic: 'revocations', id: '1-0', reason: 'malformed_json', issues: [] },
    });
    expect(decodePayload(topic, { id: '1-0', prev: null, data: null })).toEqual({
      ok: false,
      invalid: { topic: 'revocations', id: '1-0', reason: 'malformed_envelope', issues: [] },
    });
    const mismatch = decodePayload(topic, {
      id: '1-0',
      prev: null,
      data: '{"leaseId":"secret-value-123","x":[1]}',
    });
    expect(mismatch).toEqual({ ok: true, event: { id: '1-0', payload: { leaseId: 'secret-value-123' } } });
    const wrongType = decodePayload(topic, { id: '1-0', prev: null, data: '{"leaseId":12345678}' });
    expect(wrongType).toEqual({
      ok: false,
      invalid: {
        topic: 'revocations',
        id: '1-0',
        reason: 'schema_mismatch',
        issues: ['leaseId: invalid_type'],
      },
    });
    expect(JSON.stringify(wrongType)).not.toContain('12345678');
  });
});
