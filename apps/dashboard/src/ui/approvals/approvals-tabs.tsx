import Link from 'next/link';
import serverStyles from '../servers/servers.module.css';

export type ApprovalsTab = 'queue' | 'decisions' | 'closed';

export const APPROVALS_TABS: readonly { id: ApprovalsTab; label: string }[] = [
  { id: 'queue', label: 'Queue' },
  { id: 'decisions', label: 'Decisions' },
  { id: 'closed', label: 'Closed requests' },
];

export function approvalsTabOf(value: string | undefined): ApprovalsTab {
  return value === 'decisions' || value === 'closed' ? value : 'queue';
}

export function approvalsHref(tab: ApprovalsTab, workspaceId: string | undefined): string {
  const query = new URLSearchParams();
  if (tab !== 'queue') query.set('show', tab);
  if (workspaceId !== undefined) query.set('workspaceId', workspaceId);
  const text = query.toString();
  return text === '' ? '/approvals' : `/approvals?${text}`;
}

/** The Approvals views (links, so each is an address): the open queue, recorded decisions, closed requests. */
export function ApprovalsTabs({
  current,
  workspaceId,
}: {
  current: ApprovalsTab;
  workspaceId: string | undefined;
}) {
  return (
    <nav aria-label="Approvals views">
      <ul className={serverStyles.tabs}>
        {APPROVALS_TABS.map((tab) => (
          <li key={tab.id}>
            <Link
              className={serverStyles.tab}
              href={approvalsHref(tab.id, workspaceId)}
              aria-current={tab.id === current ? 'page' : undefined}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
