import type { AdmissionRefusalReason } from '@gatehouse/egress';
import type { Logger } from '@gatehouse/platform';

// Where the detailed reason for a refused destination goes: the operator's log, never the tenant. A tenant sees
// `destination_refused` whatever the cause, so it cannot probe which names and addresses the operator's own
// infrastructure uses (`operator_denied`, `private_destination`, `unresolvable` would each tell it something).

/**
 * Why a destination was refused on a pool, as the operator reads it: the egress policy's own reason, or
 * `no_pool_open` (no pool is open to the tenant, so nothing could connect), or `operator_policy_invalid` (the
 * pool's egress denylist has an entry libs/egress cannot read: the pool is closed until the operator fixes it).
 */
export type DestinationRefusalClass = AdmissionRefusalReason | 'no_pool_open' | 'operator_policy_invalid';

export interface DestinationRefusedFields {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  /** The pool that refused; null for `no_pool_open`. */
  readonly pool: string | null;
  readonly reason: DestinationRefusalClass;
  /** `scheme://host:port` only: never path, query, userinfo, headers or the addresses the host resolved to. */
  readonly origin: string | null;
}

export interface AdmissionLog {
  destinationRefused(fields: DestinationRefusedFields): void;
}

/** The operator's log through the API's pino logger (one line per refusing pool). */
export function admissionLogOf(logger: Logger): AdmissionLog {
  const log = logger.child({ component: 'admission' });
  return {
    destinationRefused(fields) {
      const line = { event: 'admission.destination_refused', ...fields };
      // A denylist the pool cannot use is the operator's misconfiguration: worth a warning, not routine.
      if (fields.reason === 'operator_policy_invalid')
        log.warn(line, 'destination refused: pool egress policy invalid');
      else log.info(line, 'destination refused');
    },
  };
}

/** For handler sets built without a logger (unit and surface tests); createApiApp always wires admissionLogOf. */
export const SILENT_ADMISSION_LOG: AdmissionLog = Object.freeze({
  destinationRefused: () => undefined,
});
