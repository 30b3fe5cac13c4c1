import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { signOutAction } from '@/server/actions/auth.actions';
import { listApprovalRequests } from '@/server/approval-queries';
import { lookupSession, sessionEndedRedirectPath, signInRedirectPath } from '@/server/current-session';
import { Badge } from '@/ui/feedback';
import { NAV_ITEMS } from '@/ui/navigation';
import { NavLink } from '@/ui/nav-link';
import { NavMenu } from '@/ui/nav-menu';
import styles from '@/ui/shell.module.css';
import { SubmitButton } from '@/ui/submit-button';
import { THEME_COOKIE, themeFromCookie } from '@/ui/theme';
import { ThemeSwitcher } from '@/ui/theme-switcher';

// The signed-in shell: sidebar navigation (Review first: Servers, and Approvals with the count of open
// requests; then Manage, Settings and the areas later issues fill), collapsed behind a Menu button on small
// screens; the tenant and the person at the top, the page in <main>. Each page checks access itself (pageAccess): a layout is not
// re-rendered on every navigation, so it is not a gate; here the session only decides what the shell shows.

/** Open approval requests, for the badge next to Approvals: undefined when they could not be counted. */
async function pendingRequestCount(): Promise<{ count: number; more: boolean } | undefined> {
  const result = await listApprovalRequests({ status: 'open', limit: PENDING_COUNT_LIMIT });
  if (!result.ok) return undefined;
  return { count: result.data.items.length, more: result.data.nextCursor !== null };
}

const PENDING_COUNT_LIMIT = 99;

function PendingBadge({ pending }: { pending: { count: number; more: boolean } }) {
  if (pending.count === 0) return null;
  const shown = `${pending.count}${pending.more ? '+' : ''}`;
  return (
    <span className={styles.countBadge} data-pending-count={shown}>
      <span className="visually-hidden">: </span>
      {shown}
      <span className="visually-hidden"> pending</span>
    </span>
  );
}

// Next.js requires a layout as the module's default export.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const lookup = await lookupSession();
  if (lookup.status === 'signed-out') redirect(await signInRedirectPath());
  if (lookup.status === 'ended') redirect(await sessionEndedRedirectPath());
  const theme = themeFromCookie((await cookies()).get(THEME_COOKIE)?.value);
  const signedIn = lookup.status === 'signed-in' ? lookup : undefined;
  const visible = NAV_ITEMS.filter((item) => !item.needs || !signedIn || signedIn.can[item.needs]);
  const ready = visible.filter((item) => item.status === 'ready');
  const groups = [
    { id: 'review', heading: 'Review', items: ready.filter((item) => item.group === 'review') },
    { id: 'manage', heading: 'Manage', items: ready.filter((item) => item.group === undefined) },
    { id: 'settings', heading: 'Settings', items: ready.filter((item) => item.group === 'settings') },
    { id: 'soon', heading: 'Coming soon', items: visible.filter((item) => item.status === 'coming-soon') },
  ];
  const pending = signedIn?.can.readApprovals ? await pendingRequestCount() : undefined;

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
          <NavMenu>
            <nav aria-label="Main" className="stack">
              {groups.map((group) =>
                group.items.length === 0 ? null : (
                  <div className={styles.navGroup} key={group.id}>
                    <p className={styles.navHeading} id={`nav-${group.id}`}>
                      {group.heading}
                    </p>
                    <ul className={styles.navList} aria-labelledby={`nav-${group.id}`}>
                      {group.items.map((item) => (
                        <li key={item.href}>
                          <NavLink
                            href={item.href}
                            muted={item.status === 'coming-soon'}
                            badge={
                              item.status === 'coming-soon' ? (
                                <span className={styles.soonTag}>Soon</span>
                              ) : item.href === '/approvals' && pending !== undefined ? (
                                <PendingBadge pending={pending} />
                              ) : undefined
                            }
                          >
                            {item.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </div>
                ),
              )}
            </nav>
          </NavMenu>
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
                <span className={`muted ${styles.userEmail}`}>{signedIn.session.user.email}</span>
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
