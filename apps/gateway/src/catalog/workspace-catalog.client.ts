import { workspaceCatalog, type WorkspaceCatalogV1 } from '@gatehouse/contracts';

// The gateway's read of the catalog lease (`GET /v1/workspaces/:id/catalog`, command catalog.get; decisions 0074
// and 0075) with its gateway token, for the caller's principal (`?principal=`; none: the workspace alone). The
// answer is held to the workspaceCatalog contract; an `If-None-Match` revalidation answered 304 costs nothing to
// parse. Expected refusals are typed; the API unreachable, a 5xx or an answer that does not parse throw.

export type CatalogRead =
  | { readonly ok: true; readonly catalog: WorkspaceCatalogV1; readonly etag: string | null }
  | { readonly ok: true; readonly notModified: true }
  | { readonly ok: false; readonly status: number };

export class CatalogUnavailableError extends Error {
  constructor(readonly status: number | null) {
    super(`workspace catalog ${status === null ? 'unreachable' : `answered ${status}`}`);
    this.name = 'CatalogUnavailableError';
  }
}

export interface WorkspaceCatalogClientOptions {
  readonly apiUrl: string;
  readonly gatewayToken: string;
  readonly timeoutMs?: number;
}

export class WorkspaceCatalogClient {
  constructor(private readonly options: WorkspaceCatalogClientOptions) {}

  async read(workspaceId: string, principal: string | null, etag: string | null): Promise<CatalogRead> {
    const url = new URL(`/v1/workspaces/${encodeURIComponent(workspaceId)}/catalog`, this.options.apiUrl);
    if (principal !== null) url.searchParams.set('principal', principal);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          authorization: `Bearer ${this.options.gatewayToken}`,
          accept: 'application/json',
          ...(etag === null ? {} : { 'if-none-match': etag }),
        },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch {
      throw new CatalogUnavailableError(null);
    }
    if (response.status === 304) {
      await response.body?.cancel();
      return { ok: true, notModified: true };
    }
    const text = await response.text().catch(() => '');
    if (response.status === 429 || response.status >= 500) throw new CatalogUnavailableError(response.status);
    if (!response.ok) return { ok: false, status: response.status };
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new CatalogUnavailableError(response.status);
    }
    const parsed = workspaceCatalog.safeParse(body);
    if (!parsed.success) throw new CatalogUnavailableError(response.status);
    return { ok: true, catalog: parsed.data, etag: response.headers.get('etag') };
  }
}
