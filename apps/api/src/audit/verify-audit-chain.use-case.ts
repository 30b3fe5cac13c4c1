import { type CommandInput, type CommandOutput, verifyAuditChain } from '@gatehouse/commands';
import { readAuditHeadSnapshot, type Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { ValidationProblemError } from '../shared/command-problems';
import { GENESIS_HASH, fromHex, toHex } from './audit-chain-encoding';
import { AuditChainVerifier, type AuditCheckpoint, type StoredAuditHead } from './audit-chain-verifier';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import {
  AUDIT_VERIFY_BATCH_SIZE,
  DEFAULT_AUDIT_VERIFY_BATCH_SIZE,
} from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `audit.verify`: recomputes the tenant's whole chain and names the first bad row (see AuditChainVerifier for
 * the problems). The head and the highest seq are read first in one statement (one snapshot); rows are then
 * read up to that point, so events appended while verifying are simply not looked at, never reported.
 * `headSeq`/`headHash` in the result are the stored head's (seq 0 and the genesis hash when there is none).
 */
@HandlesCommand(verifyAuditChain)
export class VerifyAuditChainUseCase implements UseCaseFor<typeof verifyAuditChain> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Provided by CommandDepsModule; the default serves a spec that constructs the use case itself.
    @Inject(AUDIT_VERIFY_BATCH_SIZE) private readonly batchSize: number = DEFAULT_AUDIT_VERIFY_BATCH_SIZE,
  ) {}

  async execute({
    principal,
    input,
  }: UseCaseArgs<CommandInput<typeof verifyAuditChain>>): Promise<CommandOutput<typeof verifyAuditChain>> {
    const checkpoint = checkpointOf(input);
    const tenantId = principal.tenantId;
    const snapshot = await this.db.withTenant(tenantId, (tx) => readAuditHeadSnapshot(tx, tenantId));
    const head: StoredAuditHead | undefined =
      snapshot?.head_seq != null && snapshot.head_hash != null
        ? { seq: snapshot.head_seq, hash: snapshot.head_hash }
        : undefined;
    const headSeq = head?.seq ?? 0n;
    const maxSeq = snapshot?.max_seq ?? 0n;
    const upTo = headSeq > maxSeq ? headSeq : maxSeq;

    const verifier = new AuditChainVerifier(checkpoint);
    let after = 0n;
    while (!verifier.failed && after < upTo) {
      const from = after;
      const batch = await this.db.withTenant(tenantId, (tx) =>
        tx.auditEvent.findMany({
          where: { tenantId, seq: { gt: from, lte: upTo } },
          orderBy: { seq: 'asc' },
          take: this.batchSize,
        }),
      );
      for (const row of batch) {
        verifier.push(row);
        if (verifier.failed) break;
      }
      const last = batch[batch.length - 1];
      if (last === undefined || batch.length < this.batchSize) break;
      after = last.seq;
    }

    const verdict = verifier.finish(head);
    return {
      ok: verdict.ok,
      checkedRows: verdict.checkedRows,
      headSeq: Number(headSeq),
      headHash: toHex(head?.hash ?? GENESIS_HASH),
      firstBadSeq: verdict.ok ? null : Number(verdict.firstBadSeq),
      problem: verdict.ok ? null : verdict.problem,
    };
  }
}

/** Both halves of a checkpoint, or neither: a seq without its hash cannot tell a rewritten chain. */
function checkpointOf(input: CommandInput<typeof verifyAuditChain>): AuditCheckpoint | undefined {
  const { checkpointSeq, checkpointHash } = input;
  if (checkpointSeq === undefined && checkpointHash === undefined) return undefined;
  if (checkpointSeq === undefined || checkpointHash === undefined) {
    const missing = checkpointSeq === undefined ? 'checkpointSeq' : 'checkpointHash';
    throw new ValidationProblemError(
      [{ path: missing, message: 'checkpointSeq and checkpointHash go together' }],
      'A checkpoint needs both its seq and its hash.',
    );
  }
  return { seq: BigInt(checkpointSeq), hash: fromHex(checkpointHash) };
}
