import { ProblemWithMembersError } from '../shared/problem-with-members';
import { describePoolRefusal, type PoolRefusal } from '../catalog-refresh-queue/catalog-refresh-routing';

/**
 * No pool open to the tenant may run this server (stdio, or a header helper, allowed on none of them): nothing
 * was enqueued. The members say why per pool (the stdio authority's reason words), never an argv or a URL.
 */
export function refreshUnroutable(
  reason: 'no_pool_open' | 'no_pool_allows',
  refusals: readonly PoolRefusal[],
): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 409,
      code: 'refresh_unroutable',
      title: 'No pool may run this server',
      detail:
        reason === 'no_pool_open'
          ? 'No worker pool is open to this tenant.'
          : 'No worker pool open to this tenant may run this server; its catalog cannot be discovered.',
    },
    { reason, refusals: refusals.map(describePoolRefusal) },
  );
}
