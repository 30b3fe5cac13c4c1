/**
 * A provider that a collaborator built earlier calls back, bound once the later one exists. The gateway's
 * collaborators call each other both ways (the upstream pool tells the sessions a list changed, the sessions
 * serve from the pool; the caller cache asks the revocation holder whether it is live, the holder evicts from
 * the cache): the earlier one is given this binding and reads it only when called, never while built.
 */
export class LateBinding<T> {
  private bound: T | undefined;

  bind(value: T): void {
    this.bound = value;
  }

  /** The bound value; undefined before the later provider was built (nothing calls back that early). */
  get current(): T | undefined {
    return this.bound;
  }
}
