/**
 * A record as JSON.parse builds it: not an array, not a class instance, not a map, prototype Object.prototype or
 * none. Anything else is refused by the readers, so a reader never runs code the declarer supplied.
 */
export function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The name every reader refuses as a member: it rewires prototypes in code that is not careful. */
export const FORBIDDEN_MEMBER_NAME = '__proto__';
