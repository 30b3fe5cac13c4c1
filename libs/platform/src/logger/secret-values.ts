const MIN_SECRET_LENGTH = 8;

function urlPasswords(value: string): string[] {
  try {
    const password = new URL(value).password;
    if (password === '') return [];
    return [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}

/**
 * The strings to scrub from log lines for one secret value: the value, a URL's password (raw and decoded,
 * since a driver error may print either), and each `id:material` entry's material (key rings, token lists).
 */
export function secretFragments(value: string): string[] {
  const fragments = new Set<string>([value, ...urlPasswords(value)]);
  for (const item of value.split(',')) {
    const trimmed = item.trim();
    fragments.add(trimmed);
    const separator = trimmed.indexOf(':');
    if (separator > 0 && !trimmed.includes('://')) fragments.add(trimmed.slice(separator + 1));
  }
  return [...fragments].filter((fragment) => fragment.length >= MIN_SECRET_LENGTH);
}

/**
 * Builds the last line of defence of the logger: redaction paths only catch secrets under known property
 * names, but an error message from a driver can embed a connection string. Every line is scrubbed of the
 * app's secret config values, as they appear raw and JSON-escaped. Longest first, so a value is replaced
 * whole before a fragment of it.
 */
export function createSecretScrubber(
  values: readonly string[],
  censor: string,
): ((line: string) => string) | undefined {
  const needles = new Set<string>();
  for (const value of values) {
    for (const fragment of secretFragments(value)) {
      needles.add(fragment);
      needles.add(JSON.stringify(fragment).slice(1, -1));
    }
  }
  if (needles.size === 0) return undefined;
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  return (line) => {
    let scrubbed = line;
    for (const needle of ordered)
      if (scrubbed.includes(needle)) scrubbed = scrubbed.split(needle).join(censor);
    return scrubbed;
  };
}
