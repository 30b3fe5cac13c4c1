/**
 * The one list of sensitive names. Any property with one of these names is redacted wherever it appears in a
 * log line (up to MAX_DEPTH levels deep); `headers` and `env` are redacted value by value, since every header
 * or environment value may carry a credential.
 */
export const SENSITIVE_KEYS: readonly string[] = Object.freeze([
  'authorization',
  'Authorization',
  'proxy-authorization',
  'cookie',
  'Cookie',
  'set-cookie',
  'Set-Cookie',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'passwordHash',
  'apiKey',
  'api_key',
  'privateKey',
  'plaintext',
  'keyMaterial',
  // CSRF tokens, stored hashes, and definition documents / variable values (plaintext and ciphertext).
  'csrfToken',
  'x-csrf-token',
  'secretHash',
  'csrfHash',
  'document',
  'value',
  'valueCt',
  'documentCt',
]);

/** Containers whose every value is sensitive. */
export const SENSITIVE_CONTAINERS: readonly string[] = Object.freeze(['headers', 'env']);

/** How deep under the log line's root a sensitive name is still found. */
const MAX_DEPTH = 4;

function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key.replace(/["\\]/g, '\\$&')}"]`;
}

function join(prefix: string, key: string): string {
  const part = segment(key);
  if (prefix === '') return part;
  return part.startsWith('[') ? `${prefix}${part}` : `${prefix}.${part}`;
}

function atEveryDepth(key: string, suffix: string): string[] {
  const paths: string[] = [];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const prefix = Array.from({ length: depth }, () => '*').join('.');
    paths.push(`${join(prefix, key)}${suffix}`);
  }
  return paths;
}

/**
 * Pino redaction paths for the sensitive names plus the app's secret config variables (so a logged config
 * object, or one of its values under its variable name, never prints a secret).
 */
export function redactionPaths(extraKeys: readonly string[] = []): string[] {
  const keys = new Set([...SENSITIVE_KEYS, ...extraKeys]);
  const paths = new Set<string>();
  for (const key of keys) for (const path of atEveryDepth(key, '')) paths.add(path);
  for (const container of SENSITIVE_CONTAINERS) {
    for (const path of atEveryDepth(container, '.*')) paths.add(path);
  }
  return [...paths];
}
