'use server';

import { catalogRefreshView } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { lookupSession } from '../current-session';
import { idField, textField } from '../form-data';

// "Refresh now" on a server's catalog (catalog.refresh, decision 0077): the API re-decides activation, routes the
// job to a pool that may run the server and enqueues it; asking again while it waits collapses into that job.
// A per-user server is refreshed for the person asking (their own catalog); any other for the workspace alone.

export async function refreshCatalogAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('refreshCatalog');
  if (refusal) return failure(refusal);
  const workspaceId = idField(form, 'workspaceId');
  const serverName = textField(form, 'serverName');
  if (workspaceId === undefined || serverName === '') {
    return failure(invalidInputProblem([{ path: 'serverName', message: 'No server was named.' }]));
  }
  const lookup = await lookupSession();
  const principalUserId =
    textField(form, 'perUser') === 'true' && lookup.status === 'signed-in'
      ? lookup.session.user.id
      : undefined;
  const result = await callApi({
    answer: catalogRefreshView,
    method: 'POST',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/catalog/refresh`,
    body: { serverName, ...(principalUserId ? { principalUserId } : {}) },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(
    result.data.outcome === 'enqueued'
      ? `A refresh of ${result.data.serverName} is queued for a worker of pool ${result.data.pool}.`
      : `A refresh of ${result.data.serverName} was already waiting; this ask joined it.`,
  );
}
