import { removeMaintainerAction } from '@/server/actions/workspace.actions';
import { ConfirmAction } from '@/ui/confirm-action';
import { DateTime } from '@/ui/date-time';
import styles from '@/ui/overview.module.css';
import type { MaintainerView } from '@/views/api-views';

// A workspace's maintainers, with remove for owners and admins.
export function MaintainerList({
  workspaceId,
  maintainers,
  canManage,
}: {
  workspaceId: string;
  maintainers: readonly MaintainerView[];
  canManage: boolean;
}) {
  return (
    <ul className={styles.attention}>
      {maintainers.map((maintainer) => (
        <li key={maintainer.userId} className={styles.listRow}>
          <span className="cell-stack">
            <span>{maintainer.displayName}</span>
            <span className="muted">
              {maintainer.email} · since <DateTime value={maintainer.since} />
            </span>
          </span>
          {canManage ? (
            <ConfirmAction
              trigger="Remove"
              triggerVariant="dangerOutline"
              title={`Remove ${maintainer.displayName} as a maintainer?`}
              description={
                <p>They stay a member of the tenant but no longer write this workspace’s project sources.</p>
              }
              confirmLabel="Remove maintainer"
              confirmVariant="danger"
              action={removeMaintainerAction}
              fields={{ workspaceId, userId: maintainer.userId }}
            />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
