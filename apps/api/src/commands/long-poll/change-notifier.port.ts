/**
 * The port a long-poll read awaits: "tell me when this topic changes". A topic names what a read depends on
 * (`workspace:<id>`, later `catalog:<workspaceId>`); whoever changes it publishes after the change committed.
 * Delivery may be lost (Redis pub/sub): a lost change only makes a long-poll answer at its timeout instead of
 * early, never wrongly, because the read itself decides what changed (its ETag).
 */
export interface ChangeNotifier {
  /**
   * Starts watching `topic` now, so a change published between this call and the read that follows is not
   * missed. Closed when `signal` aborts, or by `close()`.
   */
  watch(topic: string, signal: AbortSignal): Promise<ChangeWatch>;
  /** Tells every watcher of `topic`, on every replica, that it changed. */
  publish(topic: string): Promise<void>;
}

export interface ChangeWatch {
  /** Resolves at the first change since the watch started or since the previous `next()` resolved. */
  next(): Promise<void>;
  close(): Promise<void>;
}

/** The Nest token of the API's ChangeNotifier. */
export const CHANGE_NOTIFIER = Symbol('CHANGE_NOTIFIER');
