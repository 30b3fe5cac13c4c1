import type { SupervisorEvent } from '../connection-supervisor';

/** Records a supervisor's events and lets a test await the next one that matches (no sleeps). */
export class EventRecorder {
  readonly events: SupervisorEvent[] = [];
  private waiters: { match: (e: SupervisorEvent) => boolean; resolve: (e: SupervisorEvent) => void }[] = [];

  readonly listener = (event: SupervisorEvent): void => {
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(event)) return true;
      w.resolve(event);
      return false;
    });
  };

  /** The first event from now on that matches. */
  next(match: (e: SupervisorEvent) => boolean): Promise<SupervisorEvent> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  summary(): string[] {
    return this.events.map((e) =>
      e.type === 'status'
        ? `status:${e.status}${e.failure ? `:${e.failure.failureClass}` : ''}`
        : `catalog:${e.change}`,
    );
  }
}
