import Link from 'next/link';
import styles from './servers.module.css';

export type ServersTab = 'effective' | 'sources' | 'variables';

const TABS: readonly { id: ServersTab; label: string; path: string }[] = [
  { id: 'effective', label: 'Effective servers', path: '' },
  { id: 'sources', label: 'Sources', path: '/sources' },
  { id: 'variables', label: 'Variables', path: '/variables' },
];

/** The pages of one workspace's Servers section (links, so each view is an address). */
export function ServersTabs({ workspaceId, current }: { workspaceId: string; current: ServersTab }) {
  return (
    <nav aria-label="Servers of this workspace">
      <ul className={styles.tabs}>
        {TABS.map((tab) => (
          <li key={tab.id}>
            <Link
              className={styles.tab}
              href={`/servers/${workspaceId}${tab.path}`}
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
