import type { Metadata } from 'next';
import { ButtonLink } from '../ui/button';
import styles from '../ui/shell.module.css';

export const metadata: Metadata = { title: 'Not found' };

// Next.js requires the not-found page as the module's default export.
export default function NotFound() {
  return (
    <div className={styles.centered}>
      <main className={styles.card} id="main">
        <h1>Page not found</h1>
        <p className="muted">There is nothing at this address, or it belongs to another tenant.</p>
        <div>
          <ButtonLink href="/overview" variant="primary">
            Go to the overview
          </ButtonLink>
        </div>
      </main>
    </div>
  );
}
