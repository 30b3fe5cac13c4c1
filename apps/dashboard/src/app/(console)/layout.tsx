import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { signOutAction } from '../../server/actions/auth.actions';
import { lookupSession, SESSION_ENDED_PATH } from '../../server/current-session';
import { Badge } from '../../ui/feedback';
import { NAV_ITEMS } from '../../ui/navigation';
import { NavLink } from '../../ui/nav-link';
import styles from '../../ui/shell.module.css';
import { SubmitButton } from '../../ui/submit-button';
import { THEME_COOKIE, themeFromCookie } from '../../ui/theme';
import { ThemeSwitcher } from '../../ui/theme-switcher';

// The signed-in shell: sidebar navigation (with the areas later issues fill already listed), the tenant and
// the person at the top, the page in <main>. Each page checks access itself (pageAccess): a layout is not
// re-rendered on every navigation, so it is not a gate; here the session only decides what the shell shows.

// Next.js requires a layout as the module's default export.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const lookup = await lookupSession();
  if (lookup.status === 'signed-out') redirect('/sign-in');
  if (lookup.status === 'ended') redirect(SESSION_ENDED_PATH);
  const theme = themeFromCookie((await cookies()).get(THEME_COOKIE)?.value);
  const signedIn = lookup.status === 'signed-in' ? lookup : undefined;
  const visible = NAV_ITEMS.filter((item) => !item.needs || !signedIn || signedIn.can[item.needs]);

  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <aside className={styles.sidebar}>
        <div className={styles.sidebarInner}>
          <a className={styles.brand} href="/overview">
            <span className={styles.brandMark} aria-hidden="true">
              G
            </span>
            Gatehouse
          </a>
          <nav aria-label="Main" className="stack">
            <div className={styles.navGroup}>
              <p className={styles.navHeading} id="nav-manage">
                Manage
              </p>
              <ul className={styles.navList} aria-labelledby="nav-manage">
                {visible
                  .filter((item) => item.status === 'ready' && item.group === undefined)
                  .map((item) => (
                    <li key={item.href}>
                      <NavLink href={item.href}>{item.label}</NavLink>
                    </li>
                  ))}
              </ul>
            </div>
            {visible.some((item) => item.status === 'ready' && item.group === 'settings') ? (
              <div className={styles.navGroup}>
                <p className={styles.navHeading} id="nav-settings">
                  Settings
                </p>
                <ul className={styles.navList} aria-labelledby="nav-settings">
                  {visible
                    .filter((item) => item.status === 'ready' && item.group === 'settings')
                    .map((item) => (
                      <li key={item.href}>
                        <NavLink href={item.href}>{item.label}</NavLink>
                      </li>
                    ))}
                </ul>
              </div>
            ) : null}
            <div className={styles.navGroup}>
              <p className={styles.navHeading} id="nav-soon">
                Coming soon
              </p>
              <ul className={styles.navList} aria-labelledby="nav-soon">
                {visible
                  .filter((item) => item.status === 'coming-soon')
                  .map((item) => (
                    <li key={item.href}>
                      <NavLink href={item.href} muted>
                        {item.label}
                        <span className={styles.soonTag}>Soon</span>
                      </NavLink>
                    </li>
                  ))}
              </ul>
            </div>
          </nav>
        </div>
      </aside>
      <div className={styles.column}>
        <header className={styles.topbar}>
          <div className={styles.tenant}>
            {signedIn ? (
              <>
                <span className={styles.tenantName}>{signedIn.session.tenant.name}</span>
                <span className={styles.tenantSlug}>Tenant {signedIn.session.tenant.slug}</span>
              </>
            ) : (
              <span className={styles.tenantName}>Gatehouse</span>
            )}
          </div>
          <div className={styles.account}>
            <ThemeSwitcher current={theme} />
            {signedIn ? (
              <span className={styles.user}>
                <span>{signedIn.session.user.displayName}</span>
                <span className="muted">{signedIn.session.user.email}</span>
              </span>
            ) : null}
            {signedIn?.session.role ? <Badge tone="accent">{signedIn.session.role}</Badge> : null}
            <form action={signOutAction}>
              <SubmitButton variant="secondary" size="small" pendingLabel="Signing out…">
                Sign out
              </SubmitButton>
            </form>
          </div>
        </header>
        <main id="main" className={styles.content} tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
