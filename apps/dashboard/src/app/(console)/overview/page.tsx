import type { Metadata } from 'next';
import Link from 'next/link';
import { directoryFromMembers } from '@/server/actor-directory';
import {
  getAuditHead,
  listAuditEvents,
  listMembers,
  listTokens,
  listWorkspaces,
  verifyAuditChain,
} from '@/server/api-queries';
import type { ApiResult } from '@/server/api-client';
import { listApprovalRequests } from '@/server/approval-queries';
import { collectAttention } from '@/server/attention';
import { getWorkspaceCatalog } from '@/server/catalog-queries';
import { serversInTrouble } from '@/server/catalog-trouble';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink } from '@/ui/button';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { StatCard } from '@/ui/stat-card';
import { NeedsAttentionPanel } from '@/ui/needs-attention-panel';

export const metadata: Metadata = { title: 'Overview' };

const COUNT_LIMIT = 200;
/** The catalogs read for "servers in trouble": one whole catalog per workspace (no summary read yet), so few. */
const TROUBLE_WORKSPACES = 10;

function countOf<T>(
  result: ApiResult<{ items: readonly T[]; nextCursor: string | null }> | undefined,
  keep?: (item: T) => boolean,
) {
  if (result === undefined || !result.ok) return undefined;
  const items = keep ? result.data.items.filter(keep) : result.data.items;
  return result.data.nextCursor === null ? String(items.length) : `${items.length}+`;
}

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

      <section aria-label="Counts" className={styles.stats}>
        {can.readWorkspaces ? (
          <StatCard
            label="Workspaces"
            href="/workspaces"
            value={countOf(workspaces)}
            note={workspaces?.ok ? `${countOf(workspaces, (w) => w.trusted)} trusted` : undefined}
            problem={workspaces && !workspaces.ok ? workspaces.problem : undefined}
          />
        ) : null}
        {can.readTokens ? (
          <StatCard
            label={can.createServiceTokens ? 'Active API tokens' : 'Your active API tokens'}
            href="/tokens"
            value={countOf(tokens, (t) => t.revokedAt === null)}
            problem={tokens && !tokens.ok ? tokens.problem : undefined}
          />
        ) : null}
        {can.readMembers ? (
          <StatCard
            label="Members"
            href="/members"
            value={countOf(members)}
            problem={members && !members.ok ? members.problem : undefined}
          />
        ) : null}
        {can.readAudit ? (
          <StatCard
            label="Audit events"
            href="/audit"
            value={head?.ok ? head.data.seq : undefined}
            note={verification?.ok ? (verification.data.ok ? 'Chain verified' : 'Chain broken') : undefined}
            problem={head && !head.ok ? head.problem : undefined}
          />
        ) : null}
      </section>

      <div className={styles.columns}>
        {can.readAudit ? (
          <Panel
            id="recent-activity"
            title="Recent activity"
            description="The latest entries of the audit log."
            actions={
              <ButtonLink href="/audit" variant="secondary" size="small">
                Open the audit log
              </ButtonLink>
            }
          >
            {recent && !recent.ok ? (
              <ProblemCallout problem={recent.problem} context="Recent activity" />
            ) : recent && recent.data.items.length > 0 ? (
              <AuditTable
                compact
                events={recent.data.items}
                directory={directory}
                caption="Recent audit events"
              />
            ) : (
              <EmptyState title="No activity yet">
                Changes to workspaces, members and tokens are recorded here as they happen.
              </EmptyState>
            )}
          </Panel>
        ) : (
          <Panel id="getting-started" title="Getting started" description="What you can do with your role.">
            <ul>
              <li>
                <Link href="/workspaces">Browse the workspaces</Link> servers are approved for.
              </li>
              <li>
                <Link href="/tokens">Create an API token</Link> for scripts and the CLI that act as you.
              </li>
            </ul>
          </Panel>
        )}

        <NeedsAttentionPanel attention={attention} />
      </div>
    </div>
  );
}
