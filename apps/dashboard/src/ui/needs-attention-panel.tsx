import Link from 'next/link';
import type { collectAttention } from '@/server/attention';
import { EmptyState, Panel } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';

// The overview's list of things to look at, most important first (collected by src/server/attention.ts).
export function NeedsAttentionPanel({ attention }: { attention: ReturnType<typeof collectAttention> }) {
  return (
    <Panel
      id="needs-attention"
      title="Needs attention"
      description="Things to look at, most important first."
    >
      {attention.length === 0 ? (
        <EmptyState title="Nothing needs your attention">
          Broken audit chains, approval requests waiting for review, servers whose catalog is stale,
          incomplete or not discovered, expiring tokens and untrusted workspaces show up here.
        </EmptyState>
      ) : (
        <ul className={styles.attention}>
          {attention.map((item) => (
            <li key={item.id} className={styles.attentionItem} data-tone={item.tone}>
              <span className="cell-stack">
                <strong>{item.title}</strong>
                <span className="muted">{item.detail}</span>
              </span>
              <Link href={item.href}>{item.linkLabel}</Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
