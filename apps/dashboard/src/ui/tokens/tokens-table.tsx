import type { ReactNode } from 'react';
import { revokeTokenAction } from '@/server/actions/token.actions';
import type { TokenView } from '@/views/api-views';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, type BadgeTone } from '@/ui/feedback';

function statusOf(token: TokenView, now: Date): { label: string; tone: BadgeTone } {
  if (token.revokedAt !== null) return { label: 'Revoked', tone: 'negative' };
  if (token.expiresAt !== null && new Date(token.expiresAt) <= now)
    return { label: 'Expired', tone: 'caution' };
  return { label: 'Active', tone: 'positive' };
}

function RevokeToken({ token }: { token: TokenView }) {
  if (token.revokedAt !== null)
    return (
      <span className="muted">
        Revoked <DateTime value={token.revokedAt} />
      </span>
    );
  return (
    <ConfirmAction
      trigger="Revoke"
      triggerVariant="dangerOutline"
      title={`Revoke ${token.name}?`}
      description={
        <p>
          Requests with <code>{token.prefix}…</code> are refused from now on, and its holders drop their
          leases within a second. This cannot be undone; create a new token if it is still needed.
        </p>
      }
      confirmLabel="Revoke token"
      confirmVariant="danger"
      action={revokeTokenAction}
      fields={{ tokenId: token.id }}
    />
  );
}

/** The tenant's (or the caller's) API tokens by prefix, with a revoke action when the caller may create tokens. */
export function TokensTable({
  tokens,
  canRevoke,
  footer,
}: {
  tokens: readonly TokenView[];
  canRevoke: boolean;
  footer: ReactNode;
}) {
  const now = new Date();
  const columns: TableColumn[] = [
    { id: 'name', label: 'Name', sortable: true },
    { id: 'prefix', label: 'Prefix', sortable: true },
    { id: 'kind', label: 'Kind', sortable: true },
    { id: 'scopes', label: 'Scopes' },
    { id: 'lastUsed', label: 'Last used', sortable: true },
    { id: 'expires', label: 'Expires', sortable: true },
    { id: 'status', label: 'Status', sortable: true },
    ...(canRevoke ? [{ id: 'actions', label: 'Actions', hideLabel: true }] : []),
  ];
  return (
    <DataTable
      caption="API tokens"
      columns={columns}
      initialSort={{ column: 'name', direction: 'ascending' }}
      rows={tokens.map((token) => {
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
            ...(canRevoke ? [<RevokeToken key="r" token={token} />] : []),
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
      footer={footer}
    />
  );
}
