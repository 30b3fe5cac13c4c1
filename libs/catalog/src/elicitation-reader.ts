import { refuse, type OptionRead } from './option-refusal';

/**
 * Reads `elicitation`: whether this server may ask the end user for input mid-call. Default OFF (fail-closed):
 * absent reads as `false`, and only a literal boolean is accepted (`"true"` or `1` is refused, not coerced).
 */
export function readElicitation(declared: unknown): OptionRead<boolean> {
  if (declared === undefined) return { ok: true, value: false };
  if (typeof declared !== 'boolean') return refuse('wrong_type');
  return { ok: true, value: declared };
}
