import type { z } from 'zod';
import type { FieldError } from './command-problems';

const MAX_ERRORS = 20;
const MAX_PATH_LENGTH = 200;

function pathOf(segments: readonly PropertyKey[]): string {
  const path = segments.map((s) => String(s)).join('.');
  return path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path;
}

/**
 * Zod issues as `{ path, message }`. Zod's messages describe the expectation, never the received value; an
 * unknown key is reported at its own path (the key name is the client's, not a value). Capped, so a body with
 * ten thousand unknown keys does not produce a ten-thousand-entry answer.
 */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        errors.push({ path: pathOf([...issue.path, key]), message: 'Unknown field.' });
    } else {
      errors.push({ path: pathOf(issue.path), message: issue.message });
    }
    if (errors.length >= MAX_ERRORS) break;
  }
  return errors.slice(0, MAX_ERRORS);
}
