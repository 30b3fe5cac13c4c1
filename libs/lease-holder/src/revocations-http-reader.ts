// The holder's catch-up read over HTTP (docs/decisions/0065-revocations-catch-up-endpoint.md): a worker or a
// gateway reads `GET /v1/revocations?since=&limit=` of the API with its own token. The answer is handed to the
// RevocationSubscriber as it came (`unknown`), which judges it against the contract and revalidates on a page it
// cannot read; a refusal or a transport failure rejects, and the subscriber retries.

export interface HttpRevocationsReaderOptions {
  /** The API's base URL (`http://api:3000`): the path is appended. */
  readonly baseUrl: string;
  /** The holder's worker or gateway token, sent as `Authorization: Bearer`. */
  readonly token: string;
  /** Bound on one read (default 5 s): a hung API must not hang the holder's catch-up loop. */
  readonly timeoutMs?: number;
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
}

/** The API refused the read (a problem+json `code` when it sent one) or answered something that is not JSON. */
export class RevocationsReadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
  ) {
    super(`revocations read answered ${status}${code ? ` ${code}` : ''}`);
    this.name = 'RevocationsReadError';
  }
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** `readSince` for a RevocationSubscriber of a process that is not the API. */
export function createHttpRevocationsReader(
  options: HttpRevocationsReaderOptions,
): (since: number, limit: number) => Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = options.baseUrl.replace(/\/+$/, '');
  return async (since, limit) => {
    const url = `${base}/v1/revocations?since=${encodeURIComponent(String(since))}&limit=${encodeURIComponent(String(limit))}`;
    const response = await doFetch(url, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new RevocationsReadError(response.status, problemCodeOf(text));
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RevocationsReadError(response.status, null);
    }
  };
}

function problemCodeOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string')
      return body.code.slice(0, 64);
  } catch {
    // not JSON: no code
  }
  return null;
}
