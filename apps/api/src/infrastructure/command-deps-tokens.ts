// Injection tokens for what the command use cases are built with besides the infrastructure (DATABASE, LOGGER):
// the operator's pool config, admission's resolver and log, and a tunable of audit verification. The definition
// cipher is a class and is injected by it.
export const WORKER_POOLS = 'WORKER_POOLS';
export const CHECK_ADMISSION_DEPS = 'CHECK_ADMISSION_DEPS';
/** Rows per read of audit verification; each batch is its own short transaction (no snapshot held open). */
export const AUDIT_VERIFY_BATCH_SIZE = 'AUDIT_VERIFY_BATCH_SIZE';
export const DEFAULT_AUDIT_VERIFY_BATCH_SIZE = 1000;
/** What time it is: `() => new Date()` in production; tests that need another time construct the use case. */
export const CLOCK = 'CLOCK';
export type Clock = () => Date;
