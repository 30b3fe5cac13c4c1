import type { EventTopic, FanOutEvent, InvalidFanOutEvent } from './event-topic';
import { isStreamId } from './stream-id';

// One event as stored in the log and as sent over pub/sub: its id, the id of the event before it in the same
// log (`prev`, "0-0" for the first), and the JSON payload. `prev` chains the events, so a reader can tell
// whether it saw every event: the next one it gets must name its cursor as `prev`.
export interface FanOutEnvelope {
  readonly id: string;
  // Null for a log entry written without one (not by this lib): it cannot be checked for a gap.
  readonly prev: string | null;
  // Null when the entry has no payload field.
  readonly data: string | null;
}

export const ENVELOPE_PREV_FIELD = 'prev';
export const ENVELOPE_DATA_FIELD = 'data';

// Pub/sub messages are `<id>\n<prev>\n<json>`: ids never contain a newline, so no escaping, and the payload
// is not JSON-encoded a second time.
export function decodeLiveMessage(message: string): FanOutEnvelope | null {
  const first = message.indexOf('\n');
  const second = first < 0 ? -1 : message.indexOf('\n', first + 1);
  if (second < 0) return null;
  const id = message.slice(0, first);
  const prev = message.slice(first + 1, second);
  if (!isStreamId(id) || !isStreamId(prev)) return null;
  return { id, prev, data: message.slice(second + 1) };
}

// A log entry as XRANGE returns it: [id, [field, value, field, value, ...]].
export function decodeLogEntry(entry: readonly [string, readonly string[]]): FanOutEnvelope {
  const [id, fields] = entry;
  let prev: string | null = null;
  let data: string | null = null;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    const value = fields[i + 1] ?? null;
    if (name === ENVELOPE_PREV_FIELD && value !== null && isStreamId(value)) prev = value;
    if (name === ENVELOPE_DATA_FIELD) data = value;
  }
  return { id, prev, data };
}

export type DecodedPayload<T> =
  | { readonly ok: true; readonly event: FanOutEvent<T> }
  | { readonly ok: false; readonly invalid: InvalidFanOutEvent };

export function decodePayload<T>(topic: EventTopic<T>, envelope: FanOutEnvelope): DecodedPayload<T> {
  const invalid = (
    reason: InvalidFanOutEvent['reason'],
    issues: readonly string[] = [],
  ): DecodedPayload<T> => ({
    ok: false,
    invalid: { topic: topic.name, id: envelope.id, reason, issues },
  });
  if (envelope.data === null) return invalid('malformed_envelope');
  let json: unknown;
  try {
    json = JSON.parse(envelope.data);
  } catch {
    return invalid('malformed_json');
  }
  const parsed = topic.schema.safeParse(json);
  if (!parsed.success) {
    return invalid(
      'schema_mismatch',
      parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.code}`),
    );
  }
  return { ok: true, event: { id: envelope.id, payload: parsed.data } };
}
