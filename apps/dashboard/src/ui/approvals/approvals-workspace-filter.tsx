import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import { buttonClassName } from '@/ui/button';
import { SelectField } from '@/ui/form-fields';
import styles from './approvals.module.css';
import type { ApprovalsTab } from './approvals-tabs';

// Narrows the Approvals page's lists to one workspace (shown when the reader sees more than one).
export function ApprovalsWorkspaceFilter({
  tab,
  workspaceId,
  context,
}: {
  tab: ApprovalsTab;
  workspaceId: string | undefined;
  context: ApprovalsPageContext;
}) {
  return (
    <form method="get" action="/approvals" className={styles.filters} role="search" aria-label="Approvals">
      {tab !== 'queue' ? <input type="hidden" name="show" value={tab} /> : null}
      <SelectField
        id="approvals-workspace"
        name="workspaceId"
        label="Workspace"
        defaultValue={workspaceId ?? ''}
        options={[
          { value: '', label: 'All workspaces' },
          ...context.workspaces.map((workspace) => ({ value: workspace.id, label: workspace.name })),
        ]}
      />
      <button type="submit" className={buttonClassName('secondary')}>
        Show
      </button>
    </form>
  );
}
