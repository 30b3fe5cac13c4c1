import { type CommandInput, listAuditEvents } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { badCursor } from '../shared/command-problems';
import { decodeAuditCursor, encodeAuditCursor } from './audit-cursor-codec';
import { toAuditEventView } from './audit-event-view';
import { auditListWhere } from './audit-list-filter';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `audit.list`: newest first, keyset-paginated over seq (stable while new events arrive: they only ever get
 * higher seqs). The action and target kind filter by family (auditListWhere), the others match exactly; `from`
 * is inclusive and `to` exclusive on occurredAt.
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
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.auditEvent.findMany({
        where: auditListWhere(principal.tenantId, input, beforeSeq),
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
