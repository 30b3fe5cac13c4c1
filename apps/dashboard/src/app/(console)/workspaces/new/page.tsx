import type { Metadata } from 'next';
import Link from 'next/link';
import { pageAccess } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { Panel } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { NewWorkspaceForm } from '@/ui/workspaces/new-workspace-form';

export const metadata: Metadata = { title: 'New workspace' };

// Next.js requires a page as the module's default export.
export default async function NewWorkspacePage() {
  const access = await pageAccess('manageWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/workspaces">Workspaces</Link>}
        title="New workspace"
        description="New workspaces start untrusted at generation 1."
      />
      <Panel id="new-workspace" title="Workspace details">
        <NewWorkspaceForm />
      </Panel>
    </div>
  );
}
