import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

// One list method drained page by page until pagination ends, bounded by a page count, an entry count, a
// per-request timeout and the walk's own signal. Every way it can stop short is a named failure; the entries
// gathered before it stay available but are never called complete.

export type PaginationFailureReason =
  /** A `nextCursor` that is empty or longer than {@link MAX_CURSOR_LENGTH}. */
  | 'invalid_cursor'
  /** A `nextCursor` the walk already sent (a loop). */
  | 'repeated_cursor'
  /** Still a `nextCursor` after the page bound. */
  | 'page_bound'
  /** More entries than the entry bound. */
  | 'entry_bound'
  /** One page took longer than the per-request timeout. */
  | 'request_timeout'
  /** The whole walk ran out of its deadline (or the caller's signal fired). */
  | 'aborted'
  /** The server answered a page with a JSON-RPC error (e.g. it refused our cursor). */
  | 'server_error'
  /** A page the SDK could not read as the list result. */
  | 'malformed_page'
  /** The connection closed under the walk. */
  | 'connection_closed'
  /** The transport failed to carry the request (its own error is not repeated here). */
  | 'transport_failed';

export interface PaginationFailure {
  readonly reason: PaginationFailureReason;
  /** 1-based number of the page that failed (or that would have exceeded a bound). */
  readonly page: number;
  /** The JSON-RPC error code, for `server_error`. */
  readonly code?: number;
}

export interface PaginationBounds {
  readonly maxPages: number;
  readonly maxEntries: number;
  readonly requestTimeoutMs: number;
  readonly signal?: AbortSignal;
}

export type DrainResult<T> =
  | { readonly ok: true; readonly items: readonly T[]; readonly pages: number }
  | {
      readonly ok: false;
      readonly items: readonly T[];
      readonly pages: number;
      readonly failure: PaginationFailure;
    };

export const MAX_CURSOR_LENGTH = 4_096;

type PageFetcher<T> = (
  cursor: string | undefined,
  options: { timeout: number; signal?: AbortSignal },
) => Promise<{ readonly items: readonly T[]; readonly nextCursor?: string }>;

function failureOf(error: unknown, page: number, signal: AbortSignal | undefined): PaginationFailure {
  if (signal?.aborted) return { reason: 'aborted', page };
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return { reason: 'request_timeout', page };
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
        return { reason: 'connection_closed', page };
      // A result the SDK's schema does not read.
      case SdkErrorCode.InvalidResult:
        return { reason: 'malformed_page', page };
      default:
        return { reason: 'transport_failed', page };
    }
  }
  if (error instanceof ProtocolError) return { reason: 'server_error', page, code: error.code };
  // A result the schema library refused outside the SDK's own wrapping.
  if (error instanceof Error && (error.name === 'ZodError' || error.name === '$ZodError'))
    return { reason: 'malformed_page', page };
  if (error instanceof Error && /not connected|closed/i.test(error.message))
    return { reason: 'connection_closed', page };
  // Anything else failed in the transport (a refused or broken request): named, never thrown past the walk.
  return { reason: 'transport_failed', page };
}

/**
 * A signal for one page, linked to the walk's and unlinked after the page. The SDK adds an abort listener to
 * the signal of every request and never removes it: given the walk's own signal, a 500-page walk would leave
 * 500 closures on it.
 */
function pageSignal(walk: AbortSignal | undefined): {
  readonly signal?: AbortSignal;
  readonly release: () => void;
} {
  if (walk === undefined) return { release: () => undefined };
  const page = new AbortController();
  if (walk.aborted) page.abort(walk.reason);
  const onAbort = () => page.abort(walk.reason);
  walk.addEventListener('abort', onAbort, { once: true });
  return { signal: page.signal, release: () => walk.removeEventListener('abort', onAbort) };
}

export async function drainPages<T>(
  fetchPage: PageFetcher<T>,
  bounds: PaginationBounds,
): Promise<DrainResult<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    if (pages >= bounds.maxPages)
      return { ok: false, items, pages, failure: { reason: 'page_bound', page: pages + 1 } };
    if (bounds.signal?.aborted)
      return { ok: false, items, pages, failure: { reason: 'aborted', page: pages + 1 } };
    let page: Awaited<ReturnType<PageFetcher<T>>>;
    const scope = pageSignal(bounds.signal);
    try {
      page = await fetchPage(cursor, {
        timeout: bounds.requestTimeoutMs,
        ...(scope.signal ? { signal: scope.signal } : {}),
      });
    } catch (error) {
      return { ok: false, items, pages, failure: failureOf(error, pages + 1, bounds.signal) };
    } finally {
      scope.release();
    }
    pages += 1;
    if (items.length + page.items.length > bounds.maxEntries) {
      return { ok: false, items, pages, failure: { reason: 'entry_bound', page: pages } };
    }
    for (const item of page.items) items.push(item);
    const next = page.nextCursor;
    if (next === undefined) return { ok: true, items, pages };
    if (typeof next !== 'string' || next.length === 0 || next.length > MAX_CURSOR_LENGTH)
      return { ok: false, items, pages, failure: { reason: 'invalid_cursor', page: pages } };
    if (seen.has(next))
      return { ok: false, items, pages, failure: { reason: 'repeated_cursor', page: pages } };
    seen.add(next);
    cursor = next;
  }
}
