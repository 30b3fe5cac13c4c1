import { FORBIDDEN_MEMBER_NAME } from './plain-data';
import { MAX_OPTION_NAME_LENGTH, type OptionRefusalReason } from './option-refusal';

/**
 * The shape of an input-property name a tool face refers to (`pathTarget.param`, `approvalCard` and
 * `ruleFace.keys` members). These name members of a third-party JSON schema, which may be any string, so only
 * the bounds every option name keeps apply: non-empty, at most {@link MAX_OPTION_NAME_LENGTH} characters, not
 * `__proto__`. Whether the schema has the property is judged at every listing (tool-face-validator.ts).
 */
export function propertyNameProblem(name: string): OptionRefusalReason | null {
  if (name.length === 0) return 'empty_name';
  if (name === FORBIDDEN_MEMBER_NAME) return 'forbidden_name';
  if (name.length > MAX_OPTION_NAME_LENGTH) return 'name_too_long';
  return null;
}
