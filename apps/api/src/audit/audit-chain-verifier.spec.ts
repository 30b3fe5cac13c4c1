import { GENESIS_HASH, computeAuditHash } from './audit-chain-encoding';
import {
  AuditChainVerifier,
  type AuditCheckpoint,
  type StoredAuditHead,
  type StoredAuditRow,
} from './audit-chain-verifier';

const TENANT = '6f1c0c1e-8f57-4a8e-9d1b-2a3b4c5d6e7f';

function chain(length: number): StoredAuditRow[] {
  const rows: StoredAuditRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= length; i += 1) {
    const fields = {
      tenantId: TENANT,
      seq: BigInt(i),
      occurredAt: new Date(1_700_000_000_000 + i),
      actorType: 'user',
      actorId: 'u-1',
      tokenKind: null,
      action: 'workspaces.rename',
      targetType: 'workspace',
      targetId: `w-${i}`,
      outcome: 'success',
      data: { n: i },
    };
    const hash = computeAuditHash(prev, fields);
    rows.push({ ...fields, prevHash: prev, hash });
    prev = hash;
  }
  return rows;
}

function headOf(rows: StoredAuditRow[]): StoredAuditHead | undefined {
  const last = rows[rows.length - 1];
  return last ? { seq: last.seq, hash: last.hash } : undefined;
}

function verify(rows: StoredAuditRow[], head: StoredAuditHead | undefined, checkpoint?: AuditCheckpoint) {
  const verifier = new AuditChainVerifier(checkpoint);
  for (const row of rows) verifier.push(row);
  return verifier.finish(head);
}

const at = (rows: StoredAuditRow[], seq: number): StoredAuditRow => rows[seq - 1] as StoredAuditRow;

describe('AuditChainVerifier', () => {
  it('accepts an intact chain, an empty one, and a matching checkpoint', () => {
    const rows = chain(5);
    expect(verify(rows, headOf(rows))).toEqual({ ok: true, checkedRows: 5 });
    expect(verify([], undefined)).toEqual({ ok: true, checkedRows: 0 });
    expect(verify(rows, headOf(rows), { seq: 3n, hash: at(rows, 3).hash })).toEqual({
      ok: true,
      checkedRows: 5,
    });
    expect(verify(rows, headOf(rows), { seq: 0n, hash: GENESIS_HASH })).toEqual({ ok: true, checkedRows: 5 });
  });

  it('names an edited row (hash_mismatch)', () => {
    const rows = chain(5);
    rows[2] = { ...at(rows, 3), action: 'workspaces.delete' };
    expect(verify(rows, headOf(rows))).toEqual({
      ok: false,
      checkedRows: 2,
      problem: 'hash_mismatch',
      firstBadSeq: 3n,
    });
  });

  it('names the row after an edited-and-rehashed one (broken_link)', () => {
    const rows = chain(5);
    const edited = { ...at(rows, 3), action: 'workspaces.delete' };
    rows[2] = { ...edited, hash: computeAuditHash(edited.prevHash, edited) };
    expect(verify(rows, headOf(rows))).toMatchObject({ ok: false, problem: 'broken_link', firstBadSeq: 4n });
  });

  it('names a deleted middle row (sequence_gap), including the first', () => {
    const rows = chain(5);
    expect(
      verify(
        rows.filter((r) => r.seq !== 3n),
        headOf(rows),
      ),
    ).toMatchObject({ problem: 'sequence_gap', firstBadSeq: 3n });
    expect(verify(rows.slice(1), headOf(rows))).toMatchObject({ problem: 'sequence_gap', firstBadSeq: 1n });
  });

  it('names the first deleted newest row against the head (truncated)', () => {
    const rows = chain(5);
    expect(verify(rows.slice(0, 3), headOf(rows))).toEqual({
      ok: false,
      checkedRows: 3,
      problem: 'truncated',
      firstBadSeq: 4n,
    });
  });

  it('needs the external checkpoint when the head was rewound too', () => {
    const rows = chain(5);
    const kept = rows.slice(0, 4);
    expect(verify(kept, headOf(kept))).toEqual({ ok: true, checkedRows: 4 });
    const checkpoint = { seq: 5n, hash: at(rows, 5).hash };
    expect(verify(kept, headOf(kept), checkpoint)).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadSeq: 5n,
    });
    expect(verify([], undefined, checkpoint)).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadSeq: 1n,
    });
  });

  it('names a rewritten chain that no longer holds the checkpointed hash (checkpoint_mismatch)', () => {
    const rows = chain(5);
    const checkpoint = { seq: 2n, hash: new Uint8Array(32).fill(9) };
    expect(verify(rows, headOf(rows), checkpoint)).toMatchObject({
      ok: false,
      problem: 'checkpoint_mismatch',
      firstBadSeq: 2n,
    });
    expect(verify(rows, headOf(rows), { seq: 0n, hash: new Uint8Array(32).fill(1) })).toMatchObject({
      problem: 'checkpoint_mismatch',
      firstBadSeq: 0n,
    });
  });

  it('names a head row that disagrees with the last event', () => {
    const rows = chain(4);
    expect(verify(rows, { seq: 4n, hash: at(rows, 3).hash })).toMatchObject({
      problem: 'checkpoint_mismatch',
      firstBadSeq: 4n,
    });
    expect(verify(rows, { seq: 2n, hash: at(rows, 2).hash })).toMatchObject({
      problem: 'checkpoint_mismatch',
      firstBadSeq: 3n,
    });
    expect(verify(rows, undefined)).toMatchObject({ problem: 'checkpoint_mismatch', firstBadSeq: 1n });
  });

  it('reports the lowest bad seq when several rows are bad', () => {
    const rows = chain(6);
    rows[4] = { ...at(rows, 5), outcome: 'denied' };
    rows[1] = { ...at(rows, 2), outcome: 'denied' };
    expect(verify(rows, headOf(rows))).toMatchObject({ problem: 'hash_mismatch', firstBadSeq: 2n });
  });
});
