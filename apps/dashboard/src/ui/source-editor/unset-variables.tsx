import Link from 'next/link';
import { Callout } from '@/ui/feedback';
import styles from './source-editor.module.css';

// The variables an entry reads that are set nowhere it could read them, with where to set them.
export function UnsetVariables({
  unset,
  variablesHref,
}: {
  unset: readonly { name: string; hasDefault: boolean }[];
  variablesHref: string;
}) {
  return (
    <Callout tone="warning" title="Variable not set">
      <ul className={styles.warnings} aria-label="Variables not set">
        {unset.map((use) => (
          <li key={use.name} data-unset-variable={use.name}>
            <code>{use.name}</code> is not set:{' '}
            {use.hasDefault ? 'its default is used until it is.' : 'the server does not resolve until it is.'}
          </li>
        ))}
      </ul>
      <p>
        <Link href={variablesHref}>Set variables</Link>
      </p>
    </Callout>
  );
}
