import type { z } from 'zod';
import { assertCoordinationName } from './coordination-names';

export interface EventTopic<T> {
  readonly name: string;
  // Validates every event on the way in (publish) and on the way out (subscribe, readSince). Keep it a plain
  // data schema (no transforms): what it outputs is what gets stored and parsed again by readers.
  readonly schema: z.ZodType<T>;
  // Approximate cap of the catch-up log (XADD MAXLEN ~): Redis trims whole nodes, so the log holds at least
  // this many of the latest events and at most about one node (stream-node-max-entries) more.
  readonly maxLength: number;
}

export interface EventTopicDefinition<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
  readonly maxLength?: number;
}

const DEFAULT_MAX_LENGTH = 10_000;

export function defineEventTopic<T>(definition: EventTopicDefinition<T>): EventTopic<T> {
  assertCoordinationName('topic', definition.name);
  const maxLength = definition.maxLength ?? DEFAULT_MAX_LENGTH;
  if (!Number.isSafeInteger(maxLength) || maxLength < 1)
    throw new TypeError('maxLength must be an integer >= 1');
  return { name: definition.name, schema: definition.schema, maxLength };
}

export interface FanOutEvent<T> {
  // The event's id in the topic's log (a Redis stream id): the cursor to resume after.
  readonly id: string;
  readonly payload: T;
}

export type InvalidFanOutEventReason = 'malformed_envelope' | 'malformed_json' | 'schema_mismatch';

// Reported, never thrown: a bad event from another (older or newer) process must not take a subscriber down.
// Carries no payload (it may hold something sensitive), only where it was and what was wrong with it.
export interface InvalidFanOutEvent {
  readonly topic: string;
  // Null when the message was too broken to carry an id.
  readonly id: string | null;
  readonly reason: InvalidFanOutEventReason;
  // For schema mismatches: `path: code` per zod issue.
  readonly issues: readonly string[];
}

// Events between `after` and `resumedAt` were trimmed from the log (or lost with Redis' data) before this
// reader got to them. Whoever depends on every event (a revocation holder) must treat this as "anything may
// have changed" and re-validate what it holds.
export interface FanOutGap {
  readonly topic: string;
  readonly after: string;
  readonly resumedAt: string;
}
