import type { Metadata } from 'next';
import Link from 'next/link';
import { listTokens } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { ButtonLink } from '@/ui/button';
import { EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';
import { TokensTable } from '@/ui/tokens/tokens-table';

export const metadata: Metadata = { title: 'API tokens' };

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
        <TokensTable
          tokens={result.data.items}
          canRevoke={can.createTokens}
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
