import Link from 'next/link';
import styles from '@/ui/servers/servers.module.css';

// One tab per workspace on the Connections page; the page shows the servers of the current one.
export function ConnectionsWorkspaceTabs({
  workspaces,
  current,
}: {
  workspaces: readonly { readonly id: string; readonly name: string }[];
  current: string;
}) {
  return (
    <nav aria-label="Workspace">
      <ul className={styles.tabs}>
        {workspaces.map((item) => (
          <li key={item.id}>
            <Link
              className={styles.tab}
              href={`/connections?workspace=${item.id}`}
              aria-current={item.id === current ? 'true' : undefined}
            >
              {item.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
