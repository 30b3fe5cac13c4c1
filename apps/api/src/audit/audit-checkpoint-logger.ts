import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditLink } from './audit-event';

/** What the checkpoint logger needs of a pino logger. */
export interface CheckpointLogSink {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Links appended inside one `AuditCheckpointLogger.run` call: the newest per tenant. */
type PendingLinks = Map<string, AuditLink>;

const pending = new AsyncLocalStorage<PendingLinks>();

/**
 * Called by appendAuditEvent inside the caller's transaction. The link is only noted here: it is logged after
 * the surrounding `run` resolves, because a checkpoint of a row that was then rolled back would make every later
 * verification against it report `truncated`. Outside any `run` it is a no-op.
 */
export function noteAuditLink(tenantId: string, link: AuditLink): void {
  const links = pending.getStore();
  if (!links) return;
  const previous = links.get(tenantId);
  if (!previous || previous.seq < link.seq) links.set(tenantId, link);
}

/**
 * Puts each tenant's chain head outside the database as a log line (`audit.checkpoint`: tenant id, seq, head
 * hash), so that deleting the newest rows (and rewinding `audit_heads`) is caught by `audit.verify` with the
 * last logged checkpoint. Log shipping keeps the lines where the database's owner cannot rewrite them.
 *
 * The command wiring runs each mutation inside `run`: use cases resolve only after their transaction
 * committed (withTenant rejects otherwise), so every link noted by then is durable, and it is logged once. A
 * failed command logs nothing; the next successful one carries the head forward.
 */
export class AuditCheckpointLogger {
  constructor(private readonly sink: CheckpointLogSink) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const links: PendingLinks = new Map();
    const result = await pending.run(links, fn);
    for (const [tenantId, link] of links) this.log(tenantId, link);
    return result;
  }

  /** Logs one committed link (for callers that hold it themselves, e.g. the admin CLI after its transaction). */
  log(tenantId: string, link: AuditLink): void {
    this.sink.info(
      { event: 'audit.checkpoint', tenantId, seq: link.seq.toString(), hash: link.hash },
      'audit.checkpoint',
    );
  }
}

/**
 * Runs `fn`, whose transaction the caller rolls back (a dry run), with its audit links kept apart and dropped:
 * a checkpoint of a row that never committed would make every later verification report `truncated`.
 */
export async function withRolledBackAuditLinks<T>(fn: () => Promise<T>): Promise<T> {
  return pending.run(new Map(), fn);
}
