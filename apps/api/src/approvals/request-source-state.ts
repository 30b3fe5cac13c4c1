import type { ApprovalRequest, TenantTx } from '@gatehouse/db';
import { decodeDefinitionDocument } from '@gatehouse/definitions';
import type { DefinitionCipher } from '../effective-view/definition-cipher';

/**
 * Whether the source an approval request came from can be read now: `missing` when its row is gone,
 * `unreadable` when its sealed document no longer opens (a key the operator's ring lost, damaged bytes) or no
 * longer decodes. A decision that finds the entry changed asks this, so that a source nobody can read is named
 * as such instead of as a change the approver could review again.
 */
export type RequestSourceState = 'readable' | 'unreadable' | 'missing';

export async function requestSourceStateOf(
  tx: TenantTx,
  cipher: DefinitionCipher,
  request: Pick<ApprovalRequest, 'tenantId' | 'sourceTier' | 'sourceOrigin'>,
): Promise<RequestSourceState> {
  const row = await tx.definitionSource.findUnique({
    where: { tenantId_origin: { tenantId: request.tenantId, origin: request.sourceOrigin } },
  });
  if (row === null) return 'missing';
  if (row.readability !== 'readable') return 'unreadable';
  const text = cipher.openDocument(row, row.documentCt);
  if (text === undefined) return 'unreadable';
  const decoded = decodeDefinitionDocument(text, { tier: request.sourceTier, origin: request.sourceOrigin });
  return decoded.readable ? 'readable' : 'unreadable';
}
