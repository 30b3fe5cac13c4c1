import type { Database } from '@gatehouse/db';
import { demoOwnerPrincipal } from './demo-owner.principal';
import { workerPoolsEnvField } from '../../apps/api/src/auth/pool-config';
import { PutHostPolicyUseCase } from '../../apps/api/src/host-policy/put-host-policy.use-case';
import { DEMO_STDIO_COMMAND } from './demo-pool';

export interface DemoHostPolicyTarget {
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly ownerEmail: string;
  /** The WORKER_POOLS the API will run with (JSON): the HostPolicy is checked against its ceilings. */
  readonly workerPools: string;
}

/**
 * Lets the demo tenant run the demo's stdio server: its HostPolicy names that one command, written once, as the
 * demo owner, through the API's own use case (checked against the pools' ceilings, audited, a ledger event). A
 * tenant that already has a HostPolicy (a second start, or one the user edited) is left alone.
 */
export async function seedDemoHostPolicy(db: Database, target: DemoHostPolicyTarget): Promise<string[]> {
  const found = await db.withTenant(target.tenantId, async (tx) => ({
    owner: await tx.user.findUnique({ where: { email: target.ownerEmail } }),
    policy: await tx.hostPolicy.findUnique({ where: { tenantId: target.tenantId } }),
  }));
  if (found.policy !== null || found.owner === null) return [];
  const pools = workerPoolsEnvField.safeParse(target.workerPools);
  if (!pools.success) return [];
  const principal = demoOwnerPrincipal(target, found.owner.id);
  await new PutHostPolicyUseCase(db, pools.data).execute({
    principal,
    input: {
      stdioCommands: [[...DEMO_STDIO_COMMAND]],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    },
  });
  return [`  demo HostPolicy: the stdio command ${DEMO_STDIO_COMMAND.join(' ')} (the demo pool allows it)`];
}
