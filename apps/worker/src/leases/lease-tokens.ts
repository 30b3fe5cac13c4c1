/** The worker's client of the lease routes; null when no WORKER_TOKEN is configured (jobs are then skipped). */
export const LEASE_API = 'LEASE_API';
