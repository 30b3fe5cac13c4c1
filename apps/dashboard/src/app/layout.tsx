import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import Link from 'next/link';
import { dashboardSections } from './sections';
import './globals.css';

export const metadata: Metadata = {
  title: 'Gatehouse',
  description: 'Control plane for MCP servers',
};

// Next.js requires the root layout as the module's default export.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="masthead">
          <Link href="/" className="brand">
            Gatehouse
          </Link>
          <nav aria-label="Sections">
            <ul>
              {dashboardSections.map((section) => (
                <li key={section.slug}>
                  <Link href={`/${section.slug}`}>{section.title}</Link>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
