import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { Panel, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { NewTokenForm } from '@/ui/tokens/new-token-form';

export const metadata: Metadata = { title: 'New API token' };

// Next.js requires a page as the module's default export.
export default async function NewTokenPage() {
  const access = await pageAccess('createTokens');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can, session } = access;
  // Agent and worker tokens are bound to workspaces: offer the tenant's (first 200; the API checks each id).
  const workspaces =
    can.createServiceTokens && can.readWorkspaces ? await listWorkspaces({ limit: 200 }) : undefined;
  if (workspaces && !workspaces.ok) redirectIfSessionEnded(workspaces.problem);
  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/tokens">API tokens</Link>}
        title="New API token"
        description="The secret is shown once, right after creation. Choose the narrowest scopes that do the job."
      />
      {workspaces && !workspaces.ok ? (
        <ProblemCallout problem={workspaces.problem} context="Workspaces could not be loaded" />
      ) : null}
      <Panel id="new-token" title="Token">
        <NewTokenForm
          heldScopes={session.scopes}
          allowServiceKinds={can.createServiceTokens}
          workspaces={workspaces?.ok ? workspaces.data.items.map((w) => ({ id: w.id, name: w.name })) : []}
        />
      </Panel>
    </div>
  );
}
