import { COMMANDS } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { Logger, ProblemError } from '@gatehouse/platform';
import type { Redis } from 'ioredis';
import type { Principal } from '../auth/principal';
import type { RefusalObserver } from '../commands/command-runner';
import { auditActorOf } from '../auth/audit-actor';
import { appendAuditEvent } from './append-audit-event';

// Refused writes in the audit log (decision 0092): a write refused with a typed problem (4xx), by the runner's
// checks or by its use case, is recorded as `commands.refused` with the command's name, the problem's code and
// status, never its input. Only for an authenticated tenant caller: an anonymous one is refused (401) before any
// tenant is known, so it cannot write to anyone's log. Aggregated so a loop of refusals cannot fill the log: the
// first refusal of a (tenant, actor, command, code) in a window is written, the rest of that window are counted
// in Redis and the count is carried by the next row written for the same key (`foldedBefore`).

/** Use cases that record their own refusals (decision_refused, leases.refused, submit_refused, sign_in_refused). */
const SELF_AUDITED = new Set([
  'approvals.requests.decide',
  'leases.issue',
  'leases.renew',
  'leases.release',
  'catalog.submit',
  'oauth.signIn.start',
  'oauth.signIn.complete',
]);

const MUTATION_NAMES = new Set(
  COMMANDS.filter((command) => command.kind === 'mutation').map((command) => command.name),
);

export const REFUSAL_WINDOW_MS = 60_000;
/** A folded count outlives its window (the next row of the key picks it up), not forever. */
const FOLDED_TTL_MS = 24 * 60 * 60_000;

export interface RefusedWritesDeps {
  readonly db: Database;
  readonly redis: Redis;
  readonly logger: Logger;
  /** Keys are namespaced per deployment (and per test). */
  readonly keyPrefix: string;
  readonly windowMs?: number;
}

async function recordRefusal(
  deps: RefusedWritesDeps,
  principal: Principal,
  command: string,
  error: ProblemError,
): Promise<void> {
  if (principal.type !== 'tenant') return;
  const actor = auditActorOf(principal);
  const key = `${deps.keyPrefix}audit-refusal:${principal.tenantId}:${actor.id ?? '-'}:${command}:${error.code}`;
  const opened = await deps.redis.set(`${key}:window`, '1', 'PX', deps.windowMs ?? REFUSAL_WINDOW_MS, 'NX');
  if (opened === null) {
    await deps.redis.multi().incr(`${key}:folded`).pexpire(`${key}:folded`, FOLDED_TTL_MS).exec();
    return;
  }
  const folded = Number((await deps.redis.getdel(`${key}:folded`)) ?? 0);
  await deps.db.withTenant(principal.tenantId, (tx) =>
    appendAuditEvent(tx, {
      actor,
      action: 'commands.refused',
      target: { type: 'command', id: command },
      outcome: 'denied',
      data: { command, code: error.code, status: error.status, foldedBefore: folded },
    }),
  );
}

/**
 * The runner's refusal observer (RunCommandOptions.onRefused) for the audit log: every surface's typed refusal of
 * a write reaches it, whether the runner's own checks answered it (kind, pool, scope, input, a unique violation
 * mapped to 409) or the use case did. Reads are never recorded; a use case that records its own refusals is not
 * recorded twice (its checks before it ran are). Recording never changes the answer: a failure to record is
 * logged and the problem still answered.
 */
export function refusedWritesRecorder(deps: RefusedWritesDeps): RefusalObserver {
  return async ({ command, principal, problem, byUseCase }) => {
    if (!MUTATION_NAMES.has(command.name)) return;
    if (byUseCase && SELF_AUDITED.has(command.name)) return;
    await recordRefusal(deps, principal, command.name, problem).catch((cause: unknown) =>
      deps.logger.error({ err: cause, command: command.name }, 'a refused write could not be audited'),
    );
  };
}
