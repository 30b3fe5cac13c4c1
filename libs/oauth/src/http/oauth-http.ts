// The only HTTP this lib does, all through the egress lib's pinned fetch (admitted, pinned, redirects refused,
// bodies capped). A POST carries a code, a token or a secret: it is sent with `redirect: 'error'` on top of the
// pinned fetch's own refusal, so no layer could follow one. Failures name a class, never a body or a URL.
import { isEgressError, type EgressFailureReason, type PinnedFetch } from '@gatehouse/egress';

export type OAuthHttpFailure =
  /** The pinned fetch refused or could not complete the exchange (admission, redirect, size, timeout, socket). */
  | 'unreachable'
  /** The caller's deadline or the lock's loss aborted the exchange. */
  | 'aborted'
  /** A 2xx body that was not a JSON object (an error status without one is that status with no body). */
  | 'not_json';

export type OAuthHttpResult =
  | { readonly ok: true; readonly status: number; readonly body: Readonly<Record<string, unknown>> | null }
  | {
      readonly ok: false;
      readonly reason: OAuthHttpFailure;
      readonly egressReason: EgressFailureReason | null;
    };

const JSON_ACCEPT = 'application/json';

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function exchange(
  fetch: PinnedFetch,
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
): Promise<OAuthHttpResult> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) return { ok: false, reason: 'aborted', egressReason: null };
    if (isEgressError(error)) return { ok: false, reason: 'unreachable', egressReason: error.reason };
    throw error;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) return { ok: false, reason: 'aborted', egressReason: null };
    if (isEgressError(error)) return { ok: false, reason: 'unreachable', egressReason: error.reason };
    throw error;
  }
  if (text.trim() === '') return { ok: true, status: response.status, body: null };
  // An error status with a body that is no JSON object (a framework's HTML 404 page) is that status without a
  // document: a well-known location that says "not here", a token error with nothing to read.
  const isError = response.status >= 300;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (isError) return { ok: true, status: response.status, body: null };
    return { ok: false, reason: 'not_json', egressReason: null };
  }
  if (!isJsonObject(parsed)) {
    if (isError) return { ok: true, status: response.status, body: null };
    return { ok: false, reason: 'not_json', egressReason: null };
  }
  return { ok: true, status: response.status, body: parsed };
}

export function getJson(fetch: PinnedFetch, url: string, signal?: AbortSignal): Promise<OAuthHttpResult> {
  return exchange(fetch, url, { method: 'GET', headers: { accept: JSON_ACCEPT } }, signal);
}

export function postForm(
  fetch: PinnedFetch,
  url: string,
  form: URLSearchParams,
  headers: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<OAuthHttpResult> {
  return exchange(
    fetch,
    url,
    {
      method: 'POST',
      headers: { ...headers, accept: JSON_ACCEPT, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    signal,
  );
}

export function postJson(
  fetch: PinnedFetch,
  url: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<OAuthHttpResult> {
  return exchange(
    fetch,
    url,
    {
      method: 'POST',
      headers: { accept: JSON_ACCEPT, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    signal,
  );
}
