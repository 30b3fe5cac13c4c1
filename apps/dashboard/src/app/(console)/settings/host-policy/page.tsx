import type { Metadata } from 'next';
import { getHostPolicy } from '@/server/approval-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { formatArgvLines } from '@/server/host-policy-input';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout, Panel } from '@/ui/feedback';
import { HostPolicyForm } from '@/ui/host-policy/host-policy-form';
import { PoolCeiling, SavedCommands } from '@/ui/host-policy/host-policy-parts';
import styles from '@/ui/host-policy/host-policy.module.css';
import overviewStyles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';

export const metadata: Metadata = { title: 'Host policy' };

// The tenant's HostPolicy beside the operator's ceiling: what this tenant lets its servers run (stdio commands,
// header helpers, private ranges, trace origins, four-eyes) and, next to it, what each worker pool open to the
// tenant allows at most. A choice outside every pool's ceiling is refused on save; at lease time each choice
// holds only where it fits the asking pool. Owners and admins only.

// Next.js requires a page as the module's default export.
export default async function HostPolicyPage() {
  const access = await pageAccess('manageHostPolicy');
  if (!access.ok) return <AccessFailure access={access} />;
  const result = await getHostPolicy();
  if (!result.ok) {
    redirectIfSessionEnded(result.problem);
    return <PageProblem problem={result.problem} title="The host policy could not be loaded" />;
  }
  const { policy, pools } = result.data;

  return (
    <div className="stack">
      <PageHeader
        title="Host policy"
        description="What this tenant lets its servers run on the worker pools open to it. It can only narrow the operator’s ceiling: a choice outside every pool’s ceiling is refused, and at lease time each choice holds only on the pools whose ceiling it fits."
      />
      <div className={styles.columns}>
        <Panel
          id="host-policy-choices"
          title="This tenant’s choices"
          description={
            policy.updatedAt === null ? (
              'Never saved: nothing local runs and no private range is reachable.'
            ) : (
              <>
                Last saved <DateTime value={policy.updatedAt} />.
              </>
            )
          }
        >
          <div className="stack">
            <dl className={overviewStyles.definition}>
              <dt>Stdio commands</dt>
              <dd>
                <SavedCommands
                  argvs={policy.stdioCommands}
                  kind="stdio"
                  pools={pools}
                  label="Saved stdio commands"
                />
              </dd>
              <dt>Header helpers</dt>
              <dd>
                <SavedCommands
                  argvs={policy.headerHelpers}
                  kind="headerHelpers"
                  pools={pools}
                  label="Saved header helpers"
                />
              </dd>
              <dt>Four-eyes</dt>
              <dd>
                <Badge tone={policy.fourEyes ? 'positive' : 'neutral'}>
                  {policy.fourEyes ? 'On' : 'Off'}
                </Badge>
              </dd>
            </dl>
            <HostPolicyForm
              initial={{
                stdioCommands: formatArgvLines(policy.stdioCommands),
                headerHelpers: formatArgvLines(policy.headerHelpers),
                privateCidrs: policy.privateCidrs.join('\n'),
                traceContextOrigins: policy.traceContextOrigins.join('\n'),
                fourEyes: policy.fourEyes,
              }}
            />
          </div>
        </Panel>
        <Panel
          id="host-policy-ceiling"
          title="Operator ceiling"
          description="The most each worker pool open to this tenant allows. Set by the operator; read-only here."
        >
          {pools.length === 0 ? (
            <Callout tone="info">
              <p>No worker pool is open to this tenant, so no server can run yet. Ask the operator.</p>
            </Callout>
          ) : (
            <div className="stack-sm">
              {pools.map((pool) => (
                <PoolCeiling key={pool.pool} pool={pool} />
              ))}
            </div>
          )}
        </Panel>
      </div>
    </div>
  );
}
