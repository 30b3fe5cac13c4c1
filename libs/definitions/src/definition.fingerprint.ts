import type { ToolAxes, ToolFaces } from '@gatehouse/catalog';
import { CanonicalEncoder } from './canonical.encoder';
import type { MaterializedDefinition, MaterializedKeyed } from './variable.materializer';

/** Bump when the encoding changes: every approval bound to an older fingerprint then goes stale, as it must. */
const FINGERPRINT_DOMAIN = 'gatehouse.definition-fingerprint.v1';

/**
 * Env and header maps: sorted (order decides nothing), each value a marker when its key is credential-shaped,
 * else its segments. Header names compare case-insensitively, so they are written lowercase.
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
    if (item.secretKey) enc.marker(`${kind}:${key}`);
    else enc.materialized(item.value);
  }
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
 * The definition fingerprint: sha256 over everything that decides what runs or where it connects (command, args,
 * env values, cwd, URL, header values, the header helper, OAuth settings, the principal header) and how its tools
 * are mounted and trusted (the per-server options, `requiresTrustedWorkspace`). Each secret is replaced by a
 * marker naming its source, so rotating a credential keeps the fingerprint while any other change (a non-secret
 * env value such as NODE_OPTIONS, a host, an argument) changes it. Literal text is hashed exactly, whatever it
 * looks like: the credential-shape guess about literals serves display only.
 *
 * Returns `sha256:<hex>`.
 */
export function fingerprintDefinition(definition: MaterializedDefinition): string {
  const enc = new CanonicalEncoder(FINGERPRINT_DOMAIN);
  const t = definition.transport;
  enc.field('transport').text(t.kind);
  switch (t.kind) {
    case 'stdio': {
      enc.field('command').materialized(t.command);
      enc.field('args').list(t.args.length);
      for (const arg of t.args) enc.materialized(arg);
      enc.field('env');
      writeKeyed(enc, t.env, 'env');
      enc.field('cwd');
      if (t.cwd) enc.materialized(t.cwd);
      else enc.absent();
      break;
    }
    case 'http': {
      enc.field('url').materialized(t.url);
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
  return `sha256:${enc.digest()}`;
}
