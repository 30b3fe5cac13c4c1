'use client';

import { useActionState } from 'react';
import { IDLE } from '@/server/action-state';
import { refreshCatalogAction } from '@/server/actions/catalog.actions';
import { ActionFeedback } from '../action-feedback';
import { SubmitButton } from '../submit-button';

/** "Refresh now": queues a discovery of this server's catalog; asking again while it waits joins that job. */
export function RefreshCatalogForm({
  workspaceId,
  serverName,
  perUser,
}: {
  workspaceId: string;
  serverName: string;
  perUser: boolean;
}) {
  const [state, action] = useActionState(refreshCatalogAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context="The refresh was not queued" />
      <form action={action}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="serverName" value={serverName} />
        <input type="hidden" name="perUser" value={perUser ? 'true' : 'false'} />
        <SubmitButton variant="secondary" size="small" pendingLabel="Queuing…">
          Refresh now
        </SubmitButton>
      </form>
    </div>
  );
}
