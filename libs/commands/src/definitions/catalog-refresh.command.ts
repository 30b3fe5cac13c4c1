import { catalogRefreshView } from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';
import { uuid } from '../common.schema';
import { definitionServerName } from './definition-source.command';

// catalog.refresh (docs/decisions/0077-catalog-refresh-command.md): ask for one server's catalog
// to be discovered again now. People use it as the dashboard's "refresh now"; a lease holder (worker or
// gateway token) reports that the server told it its list changed (`notifications/tools/list_changed` and
// kin) on a lease it holds. Either way the API re-decides activation, routes the job to a pool that may run
// the server and enqueues it under the idempotency key, so repeated asks collapse into the job already
// waiting.

export { catalogRefreshView };

export const refreshCatalog = defineCommand({
  name: 'catalog.refresh',
  summary:
    "Discover one server's catalog again now (people: refresh now; lease holders: a list_changed seen on a " +
    'lease they hold): routed to a pool that may run it; repeated asks collapse into the waiting job',
  scope: 'catalog:refresh',
  kind: 'mutation',
  input: z.strictObject({
    workspaceId: uuid,
    serverName: definitionServerName,
    /** People: the catalog of this member's view (yourself; owners and admins: any member); omitted: the workspace alone. */
    principalUserId: uuid.nullable().optional(),
    /** Lease holders only, and required for them: the lease the list_changed was seen on (it names the principal). */
    leaseId: uuid.optional(),
  }),
  output: catalogRefreshView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/catalog/refresh' },
  graphql: { field: 'refreshCatalog' },
  problems: [
    'not_found',
    'forbidden',
    'not_approved',
    'server_not_leasable',
    'lease_ended',
    'refresh_unroutable',
  ],
  callers: ['session', 'user', 'worker', 'gateway'],
});
