import { diffProjections, type ProjectionChange } from '@gatehouse/activation';
import {
  diffReviewDigests,
  materializedDefinitionOf,
  reviewDigestsOf,
  type EffectiveEntry,
  type FingerprintKey,
  type ReviewDigests,
  type ValueChange,
} from '@gatehouse/definitions';
import { z } from 'zod';

/**
 * What a request (and the approval that decides it) stores as "what was reviewed": the redacted projection and,
 * under one reserved member, the review digests of its env and header values (keyed per tenant, never values).
 * The digests let the next request name every key whose value changed, was added or removed; they are never
 * shown (`shownProjection` drops them) and never diffed as projection fields.
 */
const DIGESTS_MEMBER = 'reviewDigests';

const keyedValueDigest = z.object({
  shown: z.string(),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  value: z.string().regex(/^[0-9a-f]{64}$/),
});
const reviewDigestsSchema = z.object({
  version: z.literal(1),
  keyId: z.string(),
  env: z.array(keyedValueDigest),
  headers: z.array(keyedValueDigest),
});

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The stored review of a resolved entry: its projection (a plain JSON copy) and its value digests. */
export function storedReviewOf(entry: EffectiveEntry, key: FingerprintKey): object {
  if (entry.status !== 'resolved') throw new Error('only resolved entries have an approval identity');
  const definition = materializedDefinitionOf(entry);
  if (definition === undefined) throw new Error('a resolved entry without its definition');
  // The redacted projection (secret values masked): a plain JSON copy, so no class instance reaches Prisma.
  const projection = JSON.parse(JSON.stringify(entry.projection)) as Record<string, unknown>;
  return { ...projection, [DIGESTS_MEMBER]: reviewDigestsOf(definition, key) };
}

/** A stored review as people may read it: the projection alone. */
export function shownProjection(stored: unknown): Record<string, unknown> {
  const { [DIGESTS_MEMBER]: _digests, ...projection } = asObject(stored);
  void _digests;
  return projection;
}

/** The digests of a stored review; null for one stored before they were (nothing to compare values with). */
function digestsOf(stored: unknown): ReviewDigests | null {
  const parsed = reviewDigestsSchema.safeParse(asObject(stored)[DIGESTS_MEMBER]);
  return parsed.success ? parsed.data : null;
}

/** A value change as one field of the review diff: `transport.<env|headers>.values.<KEY>`, never a value. */
function asProjectionChange(change: ValueChange): ProjectionChange {
  const path = ['transport', change.section, 'values', change.key];
  switch (change.kind) {
    case 'added':
      return { kind: 'added', path, after: undefined };
    case 'removed':
      return { kind: 'removed', path, before: undefined };
    case 'changed':
      return { kind: 'changed', path, before: undefined, after: undefined };
    default: {
      const unreachable: never = change.kind;
      throw new Error(`unknown value change ${String(unreachable)}`);
    }
  }
}

/**
 * What changed between a stored review (the last approval's) and a new one: the projection's fields, then every
 * env and header key whose value changed, was added or removed (keys only). An approval stored before value
 * digests existed, or under another fingerprint key, adds no value changes: there is nothing to compare with
 * (its staleness says why: `fingerprint_scheme`).
 */
export function reviewChanges(before: unknown, after: unknown): ProjectionChange[] {
  const fields = diffProjections(shownProjection(before), shownProjection(after));
  const was = digestsOf(before);
  const now = digestsOf(after);
  if (was === null || now === null) return fields;
  const values = diffReviewDigests(was, now);
  return values === null ? fields : [...fields, ...values.map(asProjectionChange)];
}
