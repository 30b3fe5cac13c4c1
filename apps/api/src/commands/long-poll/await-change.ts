import type { ChangeNotifier } from './change-notifier.port';

/**
 * What a long-poll request asks of its use case: hold the answer while the output is still the one the client
 * has (`isUnchanged`, the ETag it sent), at most `timeoutMs`. Built by the REST surface from `?wait=` and
 * `If-None-Match`; absent for an ordinary request.
 */
export interface LongPollWait {
  readonly timeoutMs: number;
  /** True while a result (as the use case returns it) would answer the client's If-None-Match. */
  isUnchanged(result: unknown): boolean;
  /** True when the client's If-None-Match holds this tag (a TaggedRead's own). */
  clientHasTag(tag: string): boolean;
}

export interface AwaitChangeOptions<T> {
  /** The request's long-poll, if it asked for one: without it, `read` runs once. */
  readonly wait: LongPollWait | undefined;
  /** Aborted when the client goes away: no further read starts, the watch closes. */
  readonly signal: AbortSignal;
  readonly changes: ChangeNotifier;
  /** The topic (or topics) whose change can change this read's output. */
  readonly topic: string | readonly string[];
  /** The read itself; it gets the signal for its own database work. */
  read(signal: AbortSignal): Promise<T>;
}

/**
 * The long-poll loop a use case awaits: watch the topic first (a change during the read is not lost), read,
 * and while the read is what the client has, wait for a change (or the timeout, or the client leaving) and read
 * again. Returns the last read: the surface answers 304 if it is still unchanged, 200 otherwise. The timer is
 * the request's own bound, never a clock reading.
 */
export async function awaitChange<T>(options: AwaitChangeOptions<T>): Promise<T> {
  const { wait, signal } = options;
  if (wait === undefined || signal.aborted) return options.read(signal);

  const expired = new AbortController();
  const timer = setTimeout(() => expired.abort(), wait.timeoutMs);
  const stop = AbortSignal.any([signal, expired.signal]);
  const topics = typeof options.topic === 'string' ? [options.topic] : options.topic;
  const watches = await Promise.all(topics.map((topic) => options.changes.watch(topic, stop)));
  try {
    let result = await options.read(signal);
    while (!stop.aborted && wait.isUnchanged(result)) {
      await Promise.race([...watches.map((watch) => watch.next()), abortedPromise(stop)]);
      if (stop.aborted) break;
      result = await options.read(signal);
    }
    return result;
  } finally {
    clearTimeout(timer);
    await Promise.all(watches.map((watch) => watch.close()));
  }
}

function abortedPromise(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
