import Link from 'next/link';
import { PageHeader } from '@/ui/page-header';
import { ServersTabs } from './servers-tabs';

// The head of a workspace's sources page: its title, what a source is, and the workspace's tabs.
export function SourcesHeader({ workspace }: { workspace: { readonly id: string; readonly name: string } }) {
  return (
    <>
      <PageHeader
        breadcrumb={<Link href="/servers">Servers</Link>}
        title={`Sources of ${workspace.name}`}
        description="Definition documents per tier, in the .mcp.json format. Writing a source never approves a server."
      />
      <ServersTabs workspaceId={workspace.id} current="sources" />
    </>
  );
}
