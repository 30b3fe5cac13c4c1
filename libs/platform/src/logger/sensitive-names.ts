/**
 * The one list of sensitive names, compared case-insensitively with `-`, `_`, `.` and spaces ignored
 * (`AUTHORIZATION`, `x-api-key`, `X_API_KEY` and `xApiKey` are one name). A property with such a name is
 * redacted whole, at any depth of a log line.
 */
export const SENSITIVE_KEYS: readonly string[] = Object.freeze([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'passwordHash',
  'apiKey',
  'x-api-key',
  'privateKey',
  'plaintext',
  'keyMaterial',
  'credential',
  'credentials',
  'signature',
  // CSRF tokens, stored hashes, and definition documents / variable values (plaintext and ciphertext).
  'secretHash',
  'csrfHash',
  'document',
  'documentCt',
  'value',
  'valueCt',
]);

/**
 * A name ending in one of these is sensitive too (`accessToken`, `refresh_token`, `client_secret`,
 * `upstreamApiKey`, `dbPassword`), but not one that only starts with it (`tokenKind`, `tokenId`, `secretRef`).
 */
export const SENSITIVE_SUFFIXES: readonly string[] = Object.freeze([
  'token',
  'tokens',
  'secret',
  'secrets',
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'privatekey',
  'credential',
  'credentials',
  'cookie',
  'cookies',
  'authorization',
]);

/**
 * Containers whose every value is sensitive, whatever its name: header and environment values, a process's
 * argv, its output streams, and query strings. Keys of an object container are kept (which headers or
 * variables were there), every value is replaced; an array keeps its length.
 */
export const SENSITIVE_CONTAINERS: readonly string[] = Object.freeze([
  'headers',
  'env',
  'environment',
  'args',
  'argv',
  'stderr',
  'stdout',
  'query',
  'querystring',
  'searchParams',
]);

/**
 * A name ending in one of these is a container too: headers under any name (Node's `rawHeaders` pairs, a
 * client's `requestHeaders`, `response_headers`).
 */
export const SENSITIVE_CONTAINER_SUFFIXES: readonly string[] = Object.freeze(['headers']);

export type KeyClass = 'plain' | 'sensitive' | 'container';

/** `X-Api-Key` -> `xapikey`: the form every comparison uses. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

const KEY_CACHE_LIMIT = 4_096;

/**
 * Classifies property names against the lists above plus the app's own secret names (its secret config
 * variables). Answers are memoized (a log line's names repeat), in a bounded map.
 */
export function createKeyClassifier(extraSensitive: readonly string[] = []): (key: string) => KeyClass {
  const exact = new Set([...SENSITIVE_KEYS, ...extraSensitive].map(normalizeName));
  const containers = new Set(SENSITIVE_CONTAINERS.map(normalizeName));
  const containerSuffixes = SENSITIVE_CONTAINER_SUFFIXES.map(normalizeName);
  const suffixes = SENSITIVE_SUFFIXES.map(normalizeName);
  const cache = new Map<string, KeyClass>();
  return (key) => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    const name = normalizeName(key);
    const verdict: KeyClass =
      containers.has(name) || containerSuffixes.some((suffix) => name.endsWith(suffix))
        ? 'container'
        : exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix))
          ? 'sensitive'
          : 'plain';
    if (cache.size >= KEY_CACHE_LIMIT) cache.clear();
    cache.set(key, verdict);
    return verdict;
  };
}
