import Link from 'next/link';
import type { DefinitionTier } from '@/views/definition-views';
import { TIER_LABELS } from './definition-labels';
import styles from './servers.module.css';

// One tab per definition tier the person may write, on the sources page.
export function TierTabs({
  tiers,
  tier,
  base,
}: {
  tiers: readonly DefinitionTier[];
  tier: DefinitionTier;
  /** The sources page's path. */
  base: string;
}) {
  return (
    <nav aria-label="Tier">
      <ul className={styles.tabs}>
        {tiers.map((candidate) => (
          <li key={candidate}>
            <Link
              className={styles.tab}
              href={`${base}?tier=${candidate}`}
              aria-current={candidate === tier ? 'true' : undefined}
            >
              {TIER_LABELS[candidate].label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
