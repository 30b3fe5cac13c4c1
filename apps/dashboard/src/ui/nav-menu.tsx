'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useId, useState, type ReactNode } from 'react';
import styles from './shell.module.css';

/**
 * The main navigation's disclosure on small screens: a "Menu" button (aria-expanded, aria-controls) that shows
 * and hides the navigation, closed again after each navigation and with Escape. On wide screens the button is
 * hidden and the navigation always shown (CSS), so this only matters below the shell's breakpoint.
 */
export function NavMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const panelId = useId();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true" className={styles.menuIcon}>
          {open ? '✕' : '☰'}
        </span>
        Menu
      </button>
      <div
        id={panelId}
        className={styles.navPanel}
        data-open={open ? 'true' : 'false'}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        {children}
      </div>
    </>
  );
}
