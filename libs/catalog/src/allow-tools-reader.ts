import { refuse, type OptionRead } from './option-refusal';
import { toolNameProblem } from './tool-name.guard';

/**
 * Reads `allowTools`: the list of the server's remote tool names to expose (others are not mounted). Absent
 * means "no allowlist" (`value: undefined`); an empty list is a real answer (expose nothing). Every member must
 * be a tool name; a duplicate is refused rather than folded, so what was approved is exactly what was written.
 */
export function readAllowTools(declared: unknown): OptionRead<readonly string[] | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (!Array.isArray(declared)) return refuse('wrong_type');
  const seen = new Set<string>();
  const names: string[] = [];
  for (let i = 0; i < declared.length; i += 1) {
    const name: unknown = declared[i];
    if (typeof name !== 'string') return refuse('wrong_type', [i]);
    const problem = toolNameProblem(name);
    if (problem) return refuse(problem, [i]);
    if (seen.has(name)) return refuse('duplicate_name', [i]);
    seen.add(name);
    names.push(name);
  }
  return { ok: true, value: Object.freeze(names) };
}
