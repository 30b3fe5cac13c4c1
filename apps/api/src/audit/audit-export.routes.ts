// `GET /v1/audit-events/export?format=jsonl|csv&<the list's filters>`: the whole filtered log, newest first,
// streamed (decision 0092). A plain Fastify route: a command answers one JSON document its output schema
// parses, an export is a stream of rows. It takes the same path into the data as `audit.list`: the caller is
// authorized against that command's declaration (caller kinds, pool, `audit:read`), the query is validated
// strictly (bad input is a 400 problem, never a partial file), and the rows are read page by page under the
// tenant's row-level security, so memory stays one page whatever the log's size.
import { Readable } from 'node:stream';
import { listAuditEvents } from '@gatehouse/commands';
import { AUDIT_EXPORT_PATH, exportAuditEventsInput } from '@gatehouse/contracts';
import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal, TenantPrincipal } from '../auth/principal';
import type { WorkerPools } from '../auth/pool-config';
import { authorize } from '../commands/command-runner';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { ValidationProblemError } from '../shared/command-problems';
import { fieldErrorsOf } from '../shared/zod-field-errors';
import { toAuditEventView } from './audit-event-view';
import { csvHeader, toCsvLine, toJsonLine } from './audit-export-format';
import { auditListWhere } from './audit-list-filter';

export interface AuditExportRouteDeps {
  readonly db: Database;
  readonly resolvePrincipal: (request: FastifyRequest) => Promise<Principal | null>;
  readonly workerPools: WorkerPools;
  readonly logger: Logger;
}

/** Rows per read: one short transaction each, so a slow reader never holds a connection for the whole file. */
const EXPORT_PAGE = 500;

type ExportFilters = ReturnType<(typeof exportAuditEventsInput)['parse']>;

async function* exportLines(db: Database, principal: TenantPrincipal, filters: ExportFilters) {
  const { format, ...where } = filters;
  const line = format === 'csv' ? toCsvLine : toJsonLine;
  if (format === 'csv') yield csvHeader();
  let beforeSeq: bigint | undefined;
  for (;;) {
    const rows = await db.withTenant(principal.tenantId, (tx) =>
      tx.auditEvent.findMany({
        where: auditListWhere(principal.tenantId, where, beforeSeq),
        orderBy: { seq: 'desc' },
        take: EXPORT_PAGE,
      }),
    );
    for (const row of rows) yield line(toAuditEventView(row));
    const last = rows[rows.length - 1];
    if (rows.length < EXPORT_PAGE || last === undefined) return;
    beforeSeq = last.seq;
  }
}

export function registerAuditExportRoute(app: FastifyInstance, deps: AuditExportRouteDeps): void {
  void app.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(deps.logger));
    scope.get(AUDIT_EXPORT_PATH, async (request, reply) => {
      const principal = authorize(listAuditEvents, await deps.resolvePrincipal(request), deps.workerPools);
      const parsed = exportAuditEventsInput.safeParse(request.query);
      if (!parsed.success) throw new ValidationProblemError(fieldErrorsOf(parsed.error));
      // audit.list admits tenant callers only (its declaration names no platform caller).
      const tenant = principal as TenantPrincipal;
      const csv = parsed.data.format === 'csv';
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '');
      const stream = Readable.from(exportLines(deps.db, tenant, parsed.data));
      stream.on('error', (error) =>
        deps.logger.error({ err: error, reqId: request.id }, 'audit export stopped mid-stream'),
      );
      return reply
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-disposition',
          `attachment; filename="audit-${tenant.tenantSlug}-${stamp}.${csv ? 'csv' : 'jsonl'}"`,
        )
        .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .send(stream);
    });
  });
}
