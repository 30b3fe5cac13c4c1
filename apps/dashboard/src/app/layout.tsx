import type { Metadata, Viewport } from 'next';
import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { HydrationMarker } from '../ui/hydration-marker';
import { THEME_COOKIE, themeFromCookie } from '../ui/theme';
import './globals.css';

export const metadata: Metadata = {
  title: { template: '%s · Gatehouse', default: 'Gatehouse' },
  description: 'Control plane for MCP servers',
  robots: { index: false, follow: false },
};

export const viewport: Viewport = { colorScheme: 'light dark' };

// Next.js requires the root layout as the module's default export.
export default async function RootLayout({ children }: { children: ReactNode }) {
  // The chosen theme is rendered on the server, so the first paint is already in it; "system" leaves the
  // attribute off and the stylesheet follows prefers-color-scheme.
  const theme = themeFromCookie((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === 'system' ? undefined : theme}>
      <body>
        {children}
        <HydrationMarker />
      </body>
    </html>
  );
}
