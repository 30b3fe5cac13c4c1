import { DateTime } from '@/ui/date-time';
import { Panel } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import type { WorkspaceView } from '@/views/api-views';

// A workspace's recorded facts: id, repository, generation, when it was created and last changed.
export function WorkspaceDetails({ ws }: { ws: WorkspaceView }) {
  return (
    <Panel id="workspace-details" title="Details">
      <dl className={styles.definition}>
        <dt>Id</dt>
        <dd>
          <code>{ws.id}</code>
        </dd>
        <dt>Repository</dt>
        <dd>
          {ws.repositoryIdentity ? <code>{ws.repositoryIdentity}</code> : <span className="muted">None</span>}
        </dd>
        <dt>Generation</dt>
        <dd>{ws.generation}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={ws.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <DateTime value={ws.updatedAt} />
        </dd>
      </dl>
    </Panel>
  );
}
