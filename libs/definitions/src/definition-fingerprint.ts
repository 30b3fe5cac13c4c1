import type { ToolAxes, ToolFaces } from '@gatehouse/catalog';
import { CanonicalEncoder } from './canonical-encoder';
import type { MaterializedDefinition, MaterializedKeyed } from './variable-materializer';

/**
 * Bump when the encoding changes: every approval bound to an older fingerprint then goes stale, as it must.
 * v2: keyed (HMAC under the tenant's fingerprint key), and a secret that is a URL or `host:port` counts where it
 * points (docs/security-identity.md).
 */
const FINGERPRINT_DOMAIN = 'gatehouse.definition-fingerprint.v2';

/** The version tag every fingerprint of this encoding starts with: `v2:<key id>:<hmac hex>`. */
export const FINGERPRINT_VERSION = 'v2';

/**
 * A tenant's fingerprint key: the bytes the HMAC is keyed with (the API derives them from the operator's key
 * ring, per tenant) and the id of the ring key they came from, which the fingerprint names. This lib never
 * derives or stores it: it is an input, like the definition.
 */
export interface FingerprintKey {
  readonly id: string;
  readonly bytes: Uint8Array;
}

const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MIN_KEY_BYTES = 16;

function checkKey(key: FingerprintKey): void {
  // A missing or malformed key is the host's bug, never a definition problem: fail loudly.
  if (!KEY_ID.test(key.id)) throw new TypeError('fingerprint key id must be a printable key id');
  if (!(key.bytes instanceof Uint8Array) || key.bytes.byteLength < MIN_KEY_BYTES) {
    throw new TypeError(`fingerprint key must hold at least ${MIN_KEY_BYTES} bytes`);
  }
}

/**
 * Env and header maps: sorted (order decides nothing), each value a marker when its key is credential-shaped
 * (followed by where it points, when it is a URL or `host:port`), else its segments. Header names compare
 * case-insensitively, so they are written lowercase.
 */
function writeKeyed(
  enc: CanonicalEncoder,
  items: readonly MaterializedKeyed[],
  kind: 'env' | 'header',
): void {
  // Keys computed once, then sorted (order decides nothing); code-unit order, like every sort in the encoding.
  const keyed = items.map((item) => ({ key: kind === 'header' ? item.key.toLowerCase() : item.key, item }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  enc.list(keyed.length);
  for (const { key, item } of keyed) {
    enc.text(key);
    writeKeyedValue(enc, key, item, kind);
  }
}

/** One env or header value, as the fingerprint (and the review digests) write it. */
export function writeKeyedValue(
  enc: CanonicalEncoder,
  key: string,
  item: MaterializedKeyed,
  kind: 'env' | 'header',
): void {
  if (item.secretKey) enc.secret(`${kind}:${key}`, item.value.value);
  else enc.materialized(item.value, { secretOrigins: true });
}

function writeToolAxes(enc: CanonicalEncoder, axes: ToolAxes | undefined): void {
  if (!axes) {
    enc.absent();
    return;
  }
  const tools = Object.keys(axes).sort();
  enc.list(tools.length);
  for (const tool of tools) {
    const axis = axes[tool];
    enc.text(tool).optionalText(axis?.effect);
    if (axis?.egress === undefined) enc.absent();
    else enc.bool(axis.egress);
    enc.optionalText(axis?.irreversibility);
  }
}

function writeToolFaces(enc: CanonicalEncoder, faces: ToolFaces | undefined): void {
  if (!faces) {
    enc.absent();
    return;
  }
  const tools = Object.keys(faces).sort();
  enc.list(tools.length);
  for (const tool of tools) {
    const face = faces[tool];
    enc.text(tool).optionalText(face?.family).optionalText(face?.pathTarget?.param);
    const hints = face?.renderHints;
    if (!hints) enc.absent();
    else enc.list(3).optionalText(hints.displayName).optionalText(hints.summary).textList(hints.approvalCard);
    enc.textList(face?.ruleFace?.keys);
  }
}

/**
 * The definition fingerprint: a keyed hash (HMAC-SHA256 under the tenant's fingerprint key) over everything that decides what runs or where it connects (command, args,
 * env values, cwd, URL, header values, the header helper, OAuth settings, the principal header) and how its tools
 * are mounted and trusted (the per-server options, `requiresTrustedWorkspace`). Each secret is replaced by a
 * marker naming its source, so rotating a credential keeps the fingerprint while any other change (a non-secret
 * env value such as NODE_OPTIONS, a host, an argument) changes it. A secret that is a URL or `host:port` counts
 * where it points (scheme, host, port), never its credential parts. Literal text is hashed exactly, whatever it
 * looks like: the credential-shape guess about literals serves display only. Keyed, so a member who reads the
 * fingerprint cannot confirm guesses of a masked literal by hashing them.
 *
 * Returns `v2:<key id>:<hex>`.
 */
export function fingerprintDefinition(definition: MaterializedDefinition, key: FingerprintKey): string {
  checkKey(key);
  const enc = new CanonicalEncoder(FINGERPRINT_DOMAIN);
  const t = definition.transport;
  enc.field('transport').text(t.kind);
  switch (t.kind) {
    case 'stdio': {
      enc.field('command').materialized(t.command, { secretOrigins: true });
      enc.field('args').list(t.args.length);
      for (const arg of t.args) enc.materialized(arg, { secretOrigins: true });
      enc.field('env');
      writeKeyed(enc, t.env, 'env');
      enc.field('cwd');
      if (t.cwd) enc.materialized(t.cwd, { secretOrigins: true });
      else enc.absent();
      break;
    }
    case 'http': {
      enc.field('url').materialized(t.url, { secretOrigins: true });
      enc.field('headers');
      writeKeyed(enc, t.headers, 'header');
      enc.field('headersHelper').textList(t.headersHelper);
      enc.field('oauth');
      if (!t.oauth) enc.absent();
      else
        enc
          .list(3)
          .optionalText(t.oauth.clientId)
          .textList(t.oauth.scopes)
          .bool(t.oauth.allowSharedCredential);
      enc.field('principalHeader').optionalText(t.principalHeader);
      break;
    }
    default: {
      const unreachable: never = t;
      throw new Error(`unknown transport ${String(unreachable)}`);
    }
  }
  const o = definition.options;
  enc.field('requiresTrustedWorkspace').bool(definition.requiresTrustedWorkspace);
  enc.field('allowTools').textList(o.allowTools);
  enc.field('toolAxes');
  writeToolAxes(enc, o.toolAxes);
  enc.field('toolFaces');
  writeToolFaces(enc, o.toolFaces);
  enc.field('contentOrigin').optionalText(o.contentOrigin);
  enc.field('startupTimeoutMs');
  if (o.startupTimeoutMs === undefined) enc.absent();
  else enc.int(o.startupTimeoutMs);
  enc.field('elicitation').bool(o.elicitation);
  return `${FINGERPRINT_VERSION}:${key.id}:${enc.keyedDigest(key.bytes)}`;
}
