import { CanonicalEncoder } from './canonical-encoder';
import { canonicalDefinitionUrl, formatCanonicalUrl, type CanonicalUrlFailure } from './canonical-url';
import { maskUrl } from './literal-masker';
import { projectDefinition, type RedactedProjection } from './redacted-projection';
import type { SourceRef } from './tier';
import type { MaterializedDefinition } from './variable-materializer';

/**
 * THE SECURITY IDENTITY of a server: what identifies it for approval and for token storage (docs/security-identity.md).
 *
 *   identity = (source tier, source origin, transport, target)
 *   target (stdio) = command, args, cwd as materialized, each secret stretch as a marker naming its variable;
 *                    an absent cwd is its own value (the stdio authority's allowed root), not "any".
 *   target (http)  = the canonical URL: scheme, lowercase host (IDN as punycode), explicit port, normalized path,
 *                    secret stretches in the path as `<secret:NAME>`; query, fragment and userinfo are not part
 *                    of it, and a secret stretch in the scheme, host or port is refused (the entry is unusable).
 *
 * The source is part of it, so the same name defined by two sources is two identities: a shadowing definition
 * can never use another's approval or sign-in. Env, headers and options are NOT part of it (they are in the
 * fingerprint, which approvals also match): the identity answers "which server", the fingerprint "exactly how".
 *
 * `key` is `sid:v1:<sha256 hex>` over an unambiguous length-prefixed encoding of the tuple; it is what approvals
 * and OAuth credentials store and compare. `display` is for people: the same target, masked like a projection.
 */
export interface SecurityIdentity {
  readonly key: string;
  readonly source: SourceRef;
  readonly transport: 'stdio' | 'http';
  /** For people: the target masked like a projection (never the exact literals, which only the key commits to). */
  readonly display: string;
}

export type SecurityIdentityResult =
  | { readonly ok: true; readonly identity: SecurityIdentity }
  | { readonly ok: false; readonly reason: CanonicalUrlFailure };

const IDENTITY_DOMAIN = 'gatehouse.security-identity.v1';

/**
 * Computes the security identity of a materialized definition from a source.
 *
 * @param projection the definition's redacted projection when the caller already has it (the stdio display is
 *   its command line and cwd); computed here otherwise.
 */
export function securityIdentityOf(
  definition: MaterializedDefinition,
  source: SourceRef,
  projection?: RedactedProjection,
): SecurityIdentityResult {
  const enc = new CanonicalEncoder(IDENTITY_DOMAIN);
  enc.field('tier').text(source.tier).field('origin').text(source.origin);
  const t = definition.transport;
  enc.field('transport').text(t.kind);
  switch (t.kind) {
    case 'stdio': {
      enc.field('command').materialized(t.command);
      enc.field('args').list(t.args.length);
      for (const arg of t.args) enc.materialized(arg);
      enc.field('cwd');
      if (t.cwd) enc.materialized(t.cwd);
      else enc.absent();
      const shown = (projection ?? projectDefinition(definition)).transport;
      if (shown.kind !== 'stdio') throw new Error('projection of another definition');
      const display = shown.cwd === null ? shown.commandLine : `${shown.commandLine} (cwd ${shown.cwd})`;
      return {
        ok: true,
        identity: { key: `sid:v1:${enc.digest()}`, source, transport: 'stdio', display },
      };
    }
    case 'http': {
      const canonical = canonicalDefinitionUrl(t.url);
      if (!canonical.ok) return canonical;
      const url = canonical.canonical;
      enc.field('scheme').text(url.scheme).field('host').text(url.host).field('port').int(url.port);
      enc.field('path').text(url.path);
      // `<secret:NAME>` reads as `${NAME}` for people, like every other secret reference they see.
      const display = maskUrl(formatCanonicalUrl(url).replace(/<secret:([A-Za-z0-9_]+)>/g, '${$1}'));
      return {
        ok: true,
        identity: { key: `sid:v1:${enc.digest()}`, source, transport: 'http', display },
      };
    }
    default: {
      const unreachable: never = t;
      throw new Error(`unknown transport ${String(unreachable)}`);
    }
  }
}
