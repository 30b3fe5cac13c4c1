import { type CommandInput, listAuditEvents } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { badCursor } from '../shared/command-problems';
import { decodeAuditCursor, encodeAuditCursor } from './audit-cursor.codec';
import { toAuditEventView } from './audit-event.view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';

/**
 * `audit.list`: newest first, keyset-paginated over seq (stable while new events arrive: they only ever get
 * higher seqs). Filters are exact matches; `from` is inclusive and `to` exclusive on occurredAt.
 */
@HandlesCommand(listAuditEvents)
export class ListAuditEventsUseCase implements UseCaseFor<typeof listAuditEvents> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listAuditEvents>>) {
    let beforeSeq: bigint | undefined;
    if (input.cursor !== undefined) {
      const decoded = decodeAuditCursor(input.cursor);
      if (!decoded.ok) throw badCursor();
      beforeSeq = decoded.beforeSeq;
    }
    const occurredAt = {
      ...(input.from !== undefined ? { gte: new Date(input.from) } : {}),
      ...(input.to !== undefined ? { lt: new Date(input.to) } : {}),
    };
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.auditEvent.findMany({
        where: {
          tenantId: principal.tenantId,
          ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}),
          ...(input.actorId !== undefined ? { actorId: input.actorId } : {}),
          ...(input.action !== undefined ? { action: input.action } : {}),
          ...(input.targetType !== undefined ? { targetType: input.targetType } : {}),
          ...(input.targetId !== undefined ? { targetId: input.targetId } : {}),
          ...(Object.keys(occurredAt).length > 0 ? { occurredAt } : {}),
        },
        orderBy: { seq: 'desc' },
        take: input.limit + 1,
      }),
    );
    const visible = rows.slice(0, input.limit);
    const last = visible[visible.length - 1];
    return {
      items: visible.map(toAuditEventView),
      nextCursor: rows.length > input.limit && last !== undefined ? encodeAuditCursor(last.seq) : null,
    };
  }
}
