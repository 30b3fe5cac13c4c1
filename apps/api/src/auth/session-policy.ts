// How long a dashboard session lives. `expires_at` in the sessions row is the sliding idle deadline, capped
// at created_at + absolute: gh_auth_session refuses a row past it, so both limits are enforced by the one
// lookup. Activity moves the deadline forward at most once a minute (one write per session per minute).

export interface SessionPolicy {
  /** A session unused this long ends. */
  readonly idleTimeoutMs: number;
  /** A session ends this long after sign-in, however active. */
  readonly absoluteTimeoutMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = Object.freeze({
  idleTimeoutMs: 30 * 60_000,
  absoluteTimeoutMs: 12 * 60 * 60_000,
});

/** Extending the deadline by less than this is not worth a write. */
export const SESSION_EXTEND_GRANULARITY_MS = 60_000;

export function absoluteDeadline(createdAt: Date, policy: SessionPolicy): Date {
  return new Date(createdAt.getTime() + policy.absoluteTimeoutMs);
}

/** The idle deadline from `now`, never past the absolute one. */
export function slidingDeadline(createdAt: Date, now: Date, policy: SessionPolicy): Date {
  return new Date(
    Math.min(now.getTime() + policy.idleTimeoutMs, absoluteDeadline(createdAt, policy).getTime()),
  );
}

/** The new deadline when activity should move it (by at least a minute), else null. */
export function extendedDeadline(
  createdAt: Date,
  expiresAt: Date,
  now: Date,
  policy: SessionPolicy,
): Date | null {
  const next = slidingDeadline(createdAt, now, policy);
  return next.getTime() - expiresAt.getTime() >= SESSION_EXTEND_GRANULARITY_MS ? next : null;
}
