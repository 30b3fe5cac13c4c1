/** A text field of a submitted form, trimmed; '' when absent or not text. */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Every checked value of a checkbox group. */
export function listField(form: FormData, name: string): string[] {
  return form.getAll(name).filter((value): value is string => typeof value === 'string' && value.length > 0);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id field, only if it has the shape of a UUID (anything else never reaches an API path). */
export function idField(form: FormData, name: string): string | undefined {
  const value = textField(form, name);
  return UUID.test(value) ? value : undefined;
}

/**
 * A same-site path to return to after sign-in: only `/something`, never `//host` or a URL, so the sign-in
 * form cannot be used to send someone elsewhere.
 */
export function safeReturnPath(value: string): string {
  return /^\/(?![/\\])[\w\-./?=&%]*$/.test(value) && !value.startsWith('/sign-in') ? value : '/';
}
