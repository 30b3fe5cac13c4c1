import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { pageAccess } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { ButtonLink } from '@/ui/button';
import { EmptyState } from '@/ui/feedback';
import { findComingSoon } from '@/ui/navigation';
import { PageHeader } from '@/ui/page-header';

type Params = { params: Promise<{ section: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: findComingSoon((await params).section)?.label ?? 'Not found' };
}

// The areas later issues build (servers, approvals, connections, catalog, gateway): listed in the navigation
// already, each with a page that says what it will hold. Any other path is a 404.
// Next.js requires a page as the module's default export.
export default async function ComingSoonPage({ params }: Params) {
  const item = findComingSoon((await params).section);
  if (!item) notFound();
  const access = await pageAccess();
  if (!access.ok) return <AccessFailure access={access} />;
  return (
    <div className="stack">
      <PageHeader title={item.label} description={item.summary} />
      <EmptyState
        title={`${item.label} is coming soon`}
        action={
          <ButtonLink href="/workspaces" variant="secondary">
            Set up workspaces meanwhile
          </ButtonLink>
        }
      >
        This area arrives with the next releases of Gatehouse. Workspaces, members, API tokens and the audit
        log are ready today.
      </EmptyState>
    </div>
  );
}
