import { AUDIT_EXPORT_PATH } from '@gatehouse/contracts';
import { NextResponse, type NextRequest } from 'next/server';
import { streamApi } from '@/server/api-stream';
import { readAuditFilters, toApiFilters } from '@/ui/audit/audit-filters';

// The audit page's export links (decision 0092): the same URL filters as the page, read the same strict way,
// sent to the API's streamed export with this session; the file flows through without being held here. A
// refusal goes back to the audit page as its problem code.

const PASSED_ON = ['content-type', 'content-disposition', 'cache-control', 'x-content-type-options'];

export async function GET(request: NextRequest): Promise<Response> {
  const params = Object.fromEntries(request.nextUrl.searchParams.entries());
  const format = params['format'] === 'csv' ? 'csv' : 'jsonl';
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(toApiFilters(readAuditFilters(params))))
    if (value !== undefined) query.set(name, value);
  const result = await streamApi(AUDIT_EXPORT_PATH, query);
  if (!result.ok)
    return new NextResponse(null, {
      status: 303,
      headers: {
        location: `/audit?exportError=${encodeURIComponent(result.code)}`,
        'cache-control': 'no-store',
      },
    });
  const out = new Headers();
  for (const name of PASSED_ON) {
    const value = result.response.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return new Response(result.response.body, { status: 200, headers: out });
}
