'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import styles from './shell.module.css';

/** A sidebar link that marks itself as the current page (aria-current) for the current path and below it. */
export function NavLink({
  href,
  children,
  muted,
  badge,
}: {
  href: string;
  children: ReactNode;
  muted?: boolean;
  /** A count next to the label (the pending approvals), read with the link. */
  badge?: ReactNode;
}) {
  const pathname = usePathname();
  const current = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      className={[styles.navLink, muted ? styles.navSoon : ''].filter(Boolean).join(' ')}
      aria-current={current ? 'page' : undefined}
    >
      {children}
      {badge}
    </Link>
  );
}
