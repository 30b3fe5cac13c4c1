import type { ApiResult } from '@/server/api-client';
import type { Capabilities } from '@/server/capabilities';
import styles from '@/ui/overview.module.css';
import { StatCard } from '@/ui/stat-card';
import type {
  AuditHeadView,
  AuditVerificationView,
  MemberView,
  Page,
  TokenView,
  WorkspaceView,
} from '@/views/api-views';

function countOf<T>(result: ApiResult<Page<T>> | undefined, keep?: (item: T) => boolean) {
  if (result === undefined || !result.ok) return undefined;
  const items = keep ? result.data.items.filter(keep) : result.data.items;
  return result.data.nextCursor === null ? String(items.length) : `${items.length}+`;
}

/** How much the tenant holds, one card per list the caller may read ("200+" when a list has more pages). */
export function OverviewCounts({
  can,
  workspaces,
  tokens,
  members,
  head,
  verification,
}: {
  can: Capabilities;
  workspaces: ApiResult<Page<WorkspaceView>> | undefined;
  tokens: ApiResult<Page<TokenView>> | undefined;
  members: ApiResult<Page<MemberView>> | undefined;
  head: ApiResult<AuditHeadView> | undefined;
  verification: ApiResult<AuditVerificationView> | undefined;
}) {
  return (
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
  );
}
