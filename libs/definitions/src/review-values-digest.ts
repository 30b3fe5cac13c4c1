import { CanonicalEncoder } from './canonical-encoder';
import { writeKeyedValue, type FingerprintKey } from './definition-fingerprint';
import type { MaterializedDefinition, MaterializedKeyed } from './variable-materializer';

/**
 * What an approver is told about env and header VALUES: which keys' values changed, were added or removed since
 * the last approval, never the values (the projection shows keys by name and no value). An approval keeps, for
 * each key, a keyed digest of the key and one of its value as the fingerprint writes it (a secret as its marker
 * and where it points), so rotating a credential is no change and anything the fingerprint sees is one. Keyed
 * with the tenant's fingerprint key: the digests confirm no guess of a value to whoever reads them.
 */
export interface KeyedValueDigest {
  /**
   * The key by name, as the projection shows it: a key is never hidden, however it looks. (Digests stored before
   * keys were shown may hold `[REDACTED]` here; only a removed key is ever named from them.)
   */
  readonly shown: string;
  /** HMAC of the key (header names case-insensitively): the same key across versions. */
  readonly key: string;
  /** HMAC of the key and its value. */
  readonly value: string;
}

export interface ReviewDigests {
  readonly version: 1;
  /** The id of the fingerprint key the digests were made under: digests under different keys never compare. */
  readonly keyId: string;
  readonly env: readonly KeyedValueDigest[];
  readonly headers: readonly KeyedValueDigest[];
}

export type ReviewSection = 'env' | 'headers';

export interface ValueChange {
  readonly kind: 'added' | 'removed' | 'changed';
  readonly section: ReviewSection;
  /** The shown key. */
  readonly key: string;
}

const REVIEW_DOMAIN = 'gatehouse.review-value.v1';

function digestsOf(
  items: readonly MaterializedKeyed[],
  kind: 'env' | 'header',
  key: FingerprintKey,
): KeyedValueDigest[] {
  // Items under one key (header names differing only in case) are one key: their values digest together.
  const byKey = new Map<string, MaterializedKeyed[]>();
  for (const item of items) {
    const name = kind === 'header' ? item.key.toLowerCase() : item.key;
    const list = byKey.get(name);
    if (list) list.push(item);
    else byKey.set(name, [item]);
  }
  const out: KeyedValueDigest[] = [];
  for (const [name, list] of byKey) {
    const keyEnc = new CanonicalEncoder(REVIEW_DOMAIN).field('kind').text(kind).field('key').text(name);
    const keyDigest = keyEnc.keyedDigest(key.bytes);
    keyEnc.field('values').list(list.length);
    for (const item of list) writeKeyedValue(keyEnc, name, item, kind);
    const first = (list[0] as MaterializedKeyed).key;
    out.push({
      shown: first,
      key: keyDigest,
      value: keyEnc.keyedDigest(key.bytes),
    });
  }
  return out.sort((a, b) => compare(a.shown, b.shown) || compare(a.key, b.key));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The review digests of a materialized definition under the tenant's fingerprint key. */
export function reviewDigestsOf(definition: MaterializedDefinition, key: FingerprintKey): ReviewDigests {
  const t = definition.transport;
  switch (t.kind) {
    case 'stdio':
      return { version: 1, keyId: key.id, env: digestsOf(t.env, 'env', key), headers: [] };
    case 'http':
      return { version: 1, keyId: key.id, env: [], headers: digestsOf(t.headers, 'header', key) };
    default: {
      const unreachable: never = t;
      throw new Error(`unknown transport ${String(unreachable)}`);
    }
  }
}

function diffSection(
  section: ReviewSection,
  before: readonly KeyedValueDigest[],
  after: readonly KeyedValueDigest[],
): (ValueChange & { readonly order: string })[] {
  const was = new Map(before.map((d) => [d.key, d]));
  const now = new Map(after.map((d) => [d.key, d]));
  const out: (ValueChange & { readonly order: string })[] = [];
  for (const d of after) {
    const old = was.get(d.key);
    if (old === undefined) out.push({ kind: 'added', section, key: d.shown, order: d.key });
    else if (old.value !== d.value) out.push({ kind: 'changed', section, key: d.shown, order: d.key });
  }
  for (const d of before) {
    if (!now.has(d.key)) out.push({ kind: 'removed', section, key: d.shown, order: d.key });
  }
  return out.sort((a, b) => compare(a.key, b.key) || compare(a.order, b.order));
}

/**
 * Which keys' values differ between two review digests (env first, then headers; each sorted by key), or null
 * when they were made under different keys and cannot be compared.
 */
export function diffReviewDigests(before: ReviewDigests, after: ReviewDigests): ValueChange[] | null {
  if (before.keyId !== after.keyId) return null;
  return [
    ...diffSection('env', before.env, after.env),
    ...diffSection('headers', before.headers, after.headers),
  ].map(({ kind, section, key }) => ({ kind, section, key }));
}
