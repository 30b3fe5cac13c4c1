import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { lookupSession } from '@/server/current-session';
import { safeReturnPath } from '@/server/form-data';
import { Callout } from '@/ui/feedback';
import { firstParam, type SearchParams } from '@/ui/paging';
import styles from '@/ui/shell.module.css';
import { THEME_COOKIE, themeFromCookie } from '@/ui/theme';
import { ThemeSwitcher } from '@/ui/theme-switcher';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

const NOTICES: Readonly<Record<string, { tone: 'info' | 'warning'; text: string }>> = {
  'signed-out': { tone: 'info', text: 'You are signed out.' },
  'signed-out-locally': {
    tone: 'warning',
    text: 'You are signed out of this browser. The API could not be reached to end the session; it will expire on its own.',
  },
  expired: { tone: 'warning', text: 'Your session ended. Sign in again to continue.' },
};

// Next.js requires a page as the module's default export.
export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // Someone already signed in has nothing to do here. With the API down the form still renders.
  if ((await lookupSession()).status === 'signed-in') redirect('/overview');
  const notice = NOTICES[firstParam(params, 'reason') ?? ''];
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
          <h1>Sign in</h1>
          <p className="muted">
            Manage the MCP servers your organization allows, its workspaces, members and tokens.
          </p>
        </div>
        {notice ? (
          <Callout tone={notice.tone} live>
            <p>{notice.text}</p>
          </Callout>
        ) : null}
        <SignInForm returnTo={safeReturnPath(firstParam(params, 'next') ?? '/overview')} />
      </main>
    </div>
  );
}
