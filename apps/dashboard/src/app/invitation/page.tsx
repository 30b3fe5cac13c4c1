import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { lookupSession } from '@/server/current-session';
import styles from '@/ui/shell.module.css';
import { THEME_COOKIE, themeFromCookie } from '@/ui/theme';
import { ThemeSwitcher } from '@/ui/theme-switcher';
import { AcceptInvitation } from './accept-invitation';

export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };

// The page an invitation link opens: `/invitation#<secret>`. The secret stays in the fragment (browsers never
// send it to a server); the client part reads it and asks the API, through server actions, what it invites to.
// Next.js requires a page as the module's default export.
export default async function InvitationPage() {
  const lookup = await lookupSession();
  const signedInAs = lookup.status === 'signed-in' ? lookup.session.user.email : null;
  const theme = themeFromCookie((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <div className={styles.centered}>
      <div className={styles.cornerTools}>
        <ThemeSwitcher current={theme} />
      </div>
      <main className={styles.card} id="main">
        <div className="stack-sm">
          <span className={styles.brand}>
            <span className={styles.brandMark} aria-hidden="true">
              G
            </span>
            Gatehouse
          </span>
          <h1>Invitation</h1>
        </div>
        <AcceptInvitation signedInAs={signedInAs} />
      </main>
    </div>
  );
}
