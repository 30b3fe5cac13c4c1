import type { Metadata } from 'next';
import { directoryFromMembers } from '@/server/actor-directory';
import {
  getAuditHead,
  listAuditEvents,
  listMembers,
  listTokens,
  listWorkspaces,
  verifyAuditChain,
} from '@/server/api-queries';
import { listApprovalRequests } from '@/server/approval-queries';
import { collectAttention } from '@/server/attention';
import { getWorkspaceCatalog } from '@/server/catalog-queries';
import { serversInTrouble } from '@/server/catalog-trouble';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import styles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { NeedsAttentionPanel } from '@/ui/needs-attention-panel';
import { OverviewCounts } from '@/ui/overview/overview-counts';
import { RecentActivityPanel } from '@/ui/overview/recent-activity-panel';

export const metadata: Metadata = { title: 'Overview' };

const COUNT_LIMIT = 200;
/** The catalogs read for "servers in trouble": one whole catalog per workspace (no summary read yet), so few. */
const TROUBLE_WORKSPACES = 10;

// Next.js requires a page as the module's default export.
export default async function OverviewPage() {
  const access = await pageAccess();
  if (!access.ok) return <AccessFailure access={access} />;
  const { session, can } = access;

  // Independent reads in parallel; each section shows its own error.
  const [workspaces, tokens, members, head, recent, verification, openRequests] = await Promise.all([
    can.readWorkspaces ? listWorkspaces({ limit: COUNT_LIMIT }) : undefined,
    can.readTokens ? listTokens({ limit: COUNT_LIMIT }) : undefined,
    can.readMembers ? listMembers({ limit: COUNT_LIMIT }) : undefined,
    can.readAudit ? getAuditHead() : undefined,
    can.readAudit ? listAuditEvents({ limit: 6 }) : undefined,
    can.readAudit ? verifyAuditChain() : undefined,
    can.decideApprovals ? listApprovalRequests({ status: 'open', limit: 100 }) : undefined,
  ]);
  for (const result of [workspaces, tokens, members, head, recent, verification, openRequests]) {
    if (result && !result.ok) redirectIfSessionEnded(result.problem);
  }
  const directory = directoryFromMembers(members?.ok ? members.data.items : []);
  const watched = can.readCatalog && workspaces?.ok ? workspaces.data.items.slice(0, TROUBLE_WORKSPACES) : [];
  const catalogs = await Promise.all(watched.map((workspace) => getWorkspaceCatalog(workspace.id)));
  const troubledServers = watched.flatMap((workspace, index) => {
    const catalog = catalogs[index];
    return catalog?.ok ? [{ workspace, servers: serversInTrouble(catalog.data) }] : [];
  });

  const attention = collectAttention({
    now: new Date(),
    verification: verification?.ok ? verification.data : undefined,
    tokens: tokens?.ok ? tokens.data.items : undefined,
    workspaces: workspaces?.ok && can.manageWorkspaces ? workspaces.data.items : undefined,
    openRequests: openRequests?.ok
      ? { items: openRequests.data.items, more: openRequests.data.nextCursor !== null }
      : undefined,
    troubledServers,
  });

  return (
    <div className="stack">
      <PageHeader
        title={`Welcome, ${session.user.displayName}`}
        description={`An overview of ${session.tenant.name}: what it holds, what happened lately, and what needs attention.`}
      />

      <OverviewCounts
        can={can}
        workspaces={workspaces}
        tokens={tokens}
        members={members}
        head={head}
        verification={verification}
      />

      <div className={styles.columns}>
        <RecentActivityPanel canReadAudit={can.readAudit} recent={recent} directory={directory} />

        <NeedsAttentionPanel attention={attention} />
      </div>
    </div>
  );
}
