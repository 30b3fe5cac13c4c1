import type { TenantTx } from '@gatehouse/db';
import {
  changeScopeOfVariable,
  openRequestsAfterVariableChange,
} from '../approval-requests/open-requests-after-change';
import type { TenantPrincipal } from '../auth/principal';
import type { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { appendLeaseChange } from '../revocations/lease-change-event';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import type { VariableHolder } from './definition-variable.holder';

/**
 * What setting or unsetting a variable sets off in its own transaction, the same for both: the views it takes part
 * in re-decided (requests opened or withdrawn), lease holders told, and discovery refreshed after commit (a new
 * value under the same fingerprint, a rotated key say, or a default taking over can change what the server lists).
 */
export async function afterVariableChange(
  tx: TenantTx,
  deps: { readonly cipher: DefinitionCipher; readonly refreshes: CatalogRefreshProducer },
  principal: TenantPrincipal,
  variable: { readonly holder: VariableHolder; readonly name: string },
  change: 'variable_set' | 'variable_unset',
): Promise<void> {
  const { holder, name } = variable;
  await openRequestsAfterVariableChange(tx, deps.cipher, principal, { ...holder, name }, change);
  await appendLeaseChange(tx, 'variable_changed', { workspaceId: holder.workspaceId, userId: holder.userId });
  deps.refreshes.afterCommitOfChange(
    tx,
    { tenantId: principal.tenantId, scope: changeScopeOfVariable(holder), authorUserId: principal.userId },
    'definition_changed',
  );
}
