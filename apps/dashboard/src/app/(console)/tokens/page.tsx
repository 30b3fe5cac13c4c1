import type { Metadata } from 'next';
import Link from 'next/link';
import { listTokens } from '@/server/api-queries';
import { revokeTokenAction } from '@/server/actions/token.actions';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import type { TokenView } from '@/views/api-views';
import { AccessFailure } from '@/ui/access-states';
import { ButtonLink } from '@/ui/button';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState, ProblemCallout, type BadgeTone } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'API tokens' };

function statusOf(token: TokenView, now: Date): { label: string; tone: BadgeTone } {
  if (token.revokedAt !== null) return { label: 'Revoked', tone: 'negative' };
  if (token.expiresAt !== null && new Date(token.expiresAt) <= now)
    return { label: 'Expired', tone: 'caution' };
  return { label: 'Active', tone: 'positive' };
}

// Next.js requires a page as the module's default export.
export default async function TokensPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readTokens');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const params = await searchParams;
  const current = readPageCursor(params);
  const pageSize = readPageSize(params);
  const includeRevoked = firstParam(params, 'revoked') === '1';
  const result = await listTokens({ cursor: current.cursor, limit: pageSize, includeRevoked });
  if (!result.ok) redirectIfSessionEnded(result.problem);
  const now = new Date();

  const columns: TableColumn[] = [
    { id: 'name', label: 'Name', sortable: true },
    { id: 'prefix', label: 'Prefix', sortable: true },
    { id: 'kind', label: 'Kind', sortable: true },
    { id: 'scopes', label: 'Scopes' },
    { id: 'lastUsed', label: 'Last used', sortable: true },
    { id: 'expires', label: 'Expires', sortable: true },
    { id: 'status', label: 'Status', sortable: true },
    ...(can.createTokens ? [{ id: 'actions', label: 'Actions', hideLabel: true }] : []),
  ];
  const createButton = can.createTokens ? (
    <ButtonLink href="/tokens/new" variant="primary">
      New token
    </ButtonLink>
  ) : null;

  return (
    <div className="stack">
      <PageHeader
        title="API tokens"
        description={
          can.createServiceTokens
            ? 'Every token of this tenant. Tokens are listed by prefix: their secrets were shown once, when they were created.'
            : 'Your API tokens. Tokens are listed by prefix: their secrets were shown once, when they were created.'
        }
        actions={
          <>
            <Link href={includeRevoked ? '/tokens' : '/tokens?revoked=1'}>
              {includeRevoked ? 'Hide revoked tokens' : 'Show revoked tokens'}
            </Link>
            {createButton}
          </>
        }
      />
      {!result.ok ? (
        <ProblemCallout problem={result.problem} context="Tokens could not be loaded" />
      ) : result.data.items.length === 0 && current.cursor === undefined ? (
        <EmptyState title="No API tokens yet" action={createButton}>
          {can.createServiceTokens
            ? 'Create a user token for scripts and the CLI, an agent token for an agent runtime bound to workspaces, or a worker token for a worker pool.'
            : can.createTokens
              ? 'Create a user token when a script or the CLI should act as you. It holds at most your own scopes.'
              : 'Your role cannot create API tokens. Ask an owner or admin of this tenant if a script of yours needs one.'}
        </EmptyState>
      ) : (
        <DataTable
          caption="API tokens"
          columns={columns}
          initialSort={{ column: 'name', direction: 'ascending' }}
          rows={result.data.items.map((token) => {
            const status = statusOf(token, now);
            return {
              id: token.id,
              cells: [
                token.name,
                <code key="p">{token.prefix}…</code>,
                <Badge key="k">{token.kind}</Badge>,
                <span key="s" className="muted">
                  {token.scopes.join(', ')}
                </span>,
                <DateTime key="l" value={token.lastUsedAt} fallback="Never" />,
                <DateTime key="e" value={token.expiresAt} fallback="Never" />,
                <Badge key="st" tone={status.tone}>
                  {status.label}
                </Badge>,
                ...(can.createTokens
                  ? [
                      token.revokedAt === null ? (
                        <ConfirmAction
                          key="r"
                          trigger="Revoke"
                          triggerVariant="dangerOutline"
                          title={`Revoke ${token.name}?`}
                          description={
                            <p>
                              Requests with <code>{token.prefix}…</code> are refused from now on, and its
                              holders drop their leases within a second. This cannot be undone; create a new
                              token if it is still needed.
                            </p>
                          }
                          confirmLabel="Revoke token"
                          confirmVariant="danger"
                          action={revokeTokenAction}
                          fields={{ tokenId: token.id }}
                        />
                      ) : (
                        <span key="r" className="muted">
                          Revoked <DateTime value={token.revokedAt} />
                        </span>
                      ),
                    ]
                  : []),
              ],
              sort: [
                token.name,
                token.prefix,
                token.kind,
                null,
                token.lastUsedAt,
                token.expiresAt,
                status.label,
                null,
              ],
              search: `${token.name} ${token.prefix} ${token.kind} ${token.scopes.join(' ')} ${status.label}`,
            };
          })}
          footer={
            <Pager
              path="/tokens"
              keep={{ revoked: includeRevoked ? '1' : undefined }}
              current={current}
              pageSize={pageSize}
              nextCursor={result.data.nextCursor}
              label="Token pages"
            />
          }
        />
      )}
    </div>
  );
}
