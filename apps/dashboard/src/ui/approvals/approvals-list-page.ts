import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import type { PageCursor } from '@/ui/paging';
import type { ApprovalsTab } from './approvals-tabs';

/** One page of a list on the Approvals page, as the page read it. */
export interface ApprovalsListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  readonly context: ApprovalsPageContext;
  readonly workspaceId: string | undefined;
  readonly current: PageCursor;
  readonly pageSize: number;
}

export function approvalsPagerKeep(
  tab: ApprovalsTab,
  workspaceId: string | undefined,
): Record<string, string | undefined> {
  return { show: tab === 'queue' ? undefined : tab, workspaceId };
}
