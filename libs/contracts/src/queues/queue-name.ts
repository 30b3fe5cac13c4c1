/**
 * Every BullMQ queue, in one frozen enum: producers and processors use these names only, so a queue cannot
 * be misspelt on one side. Renaming a value strands the jobs waiting under the old name: add, never rename.
 */
export const QueueName = Object.freeze({
  CatalogRefresh: 'catalog-refresh',
  Probe: 'probe',
} as const);

export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const QUEUE_NAMES: readonly QueueName[] = Object.freeze(Object.values(QueueName));

export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}

/**
 * Queues the API consumes itself, never a worker (its schedulers): kept apart from QueueName, whose every queue a
 * worker pool serves. Same rule: add, never rename.
 */
export const ApiQueueName = Object.freeze({
  /** The periodic catalog sweep (a BullMQ job scheduler): enqueues refreshes of missing or old snapshots. */
  CatalogSweep: 'catalog-sweep',
} as const);
export type ApiQueueName = (typeof ApiQueueName)[keyof typeof ApiQueueName];
