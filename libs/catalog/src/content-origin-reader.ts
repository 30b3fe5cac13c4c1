import { refuse, type OptionRead } from './option-refusal';

/**
 * The content class a server's whole tool set brings back: `local` (content the deployment wrote; calls no
 * longer mark the session's memory), `execution` (the same, but a strict deployment may still upgrade it),
 * `external` (an explicit pin of the fail-closed class). Absent means the fail-closed default (`external`).
 */
export const CONTENT_ORIGINS = ['local', 'execution', 'external'] as const;
export type ContentOrigin = (typeof CONTENT_ORIGINS)[number];

/**
 * Who declares the option. `contentOrigin` is a TRUST declaration that moves the deployment's trust boundary, so
 * only the deployment plane (in Gatehouse: the managed tier, written by the tenant's owners and admins) may
 * declare it. "Allowed to define a server" is not "allowed to redefine the trust boundary": a project, plugin,
 * user or local source declaring it is refused, never silently stripped.
 */
export type DeclaringPlane = 'deployment' | 'request';

/** Reads `contentOrigin`. A word outside the vocabulary is refused, never folded to a class. */
export function readContentOrigin(
  declared: unknown,
  plane: DeclaringPlane,
): OptionRead<ContentOrigin | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (plane !== 'deployment') return refuse('not_deployment_plane');
  if (typeof declared !== 'string') return refuse('wrong_type');
  if (!(CONTENT_ORIGINS as readonly string[]).includes(declared)) return refuse('not_in_vocabulary');
  return { ok: true, value: declared as ContentOrigin };
}
