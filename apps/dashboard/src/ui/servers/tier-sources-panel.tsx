import Link from 'next/link';
import { Panel } from '@/ui/feedback';
import type { DefinitionSourceSummaryView, DefinitionTier } from '@/views/definition-views';
import { TIER_LABELS } from './definition-labels';
import styles from './servers.module.css';

// The named sources of a tenant-wide tier (managed, plugin), each a link to its editor, and a new one.
export function TierSourcesPanel({
  tier,
  namedOfTier,
  base,
}: {
  tier: DefinitionTier;
  namedOfTier: readonly DefinitionSourceSummaryView[];
  base: string;
}) {
  return (
    <Panel id="tier-sources" title={`${TIER_LABELS[tier].label} sources`}>
      <ul className={styles.keys}>
        {namedOfTier.map((source) => {
          const sourceName = source.origin.slice(tier.length + 1);
          return (
            <li key={source.id}>
              <Link href={`${base}?tier=${tier}&name=${encodeURIComponent(sourceName)}`}>
                {source.origin}
              </Link>
            </li>
          );
        })}
        <li>
          <Link href={`${base}?tier=${tier}`}>New {tier} source</Link>
        </li>
      </ul>
    </Panel>
  );
}
