import type { TenantTx, Workspace } from '@gatehouse/db';
import type { ResolveResult } from '@gatehouse/definitions';
import { Inject, Injectable } from '@nestjs/common';
import { DefinitionCipher } from './definition-cipher';
import {
  evaluateWorkspaceView,
  loadEffectiveViews,
  type EffectiveViews,
  type EvaluatedView,
} from './effective-views';
import { resolveWorkspaceView } from './resolved-view';
import { decideServerActivation, type ServerActivation } from './server-activation';

/**
 * The one place the API answers, for (tenant, workspace, principal), which definition entries a view resolves
 * and how activation decides each: per view (the workspace alone, or one principal in it) and per server. Every
 * feature that needs the answer (approvals, leases, catalog, catalog refresh, admission, OAuth, the definitions'
 * own effective view) asks here, inside its own transaction; none resolves or decides on its own.
 *
 * A Nest provider over the pure functions of this folder, with the definition cipher bound (what the views
 * resolve from is stored sealed). Callers that hold a cipher but no container (the functions a command shares
 * with others) call those functions directly: the answer is the same.
 */
@Injectable()
export class EffectiveView {
  constructor(@Inject(DefinitionCipher) private readonly cipher: DefinitionCipher) {}

  /** The views of many workspaces and principals, read once (a change that re-decides many views). */
  load(
    tx: TenantTx,
    args: { tenantId: string; workspaceIds: readonly string[]; userIds: readonly string[] },
  ): Promise<EffectiveViews> {
    return loadEffectiveViews(tx, this.cipher, args);
  }

  /** One view of one workspace, every entry decided. */
  ofWorkspace(
    tx: TenantTx,
    args: { tenantId: string; workspace: Workspace; userId: string | null; now?: Date },
  ): Promise<EvaluatedView> {
    return evaluateWorkspaceView(tx, this.cipher, args);
  }

  /** One server of one view, decided against that server's approvals alone. */
  ofServer(
    tx: TenantTx,
    args: {
      readonly tenantId: string;
      readonly workspace: Workspace;
      readonly userId: string | null;
      readonly serverName: string;
      readonly now: Date;
    },
  ): Promise<ServerActivation> {
    return decideServerActivation(tx, this.cipher, args);
  }

  /** One view of one workspace resolved, activation not decided. */
  resolved(
    tx: TenantTx,
    args: { tenantId: string; workspaceId: string; userId: string | null },
  ): Promise<ResolveResult> {
    return resolveWorkspaceView(tx, this.cipher, args);
  }

  /** The tenant's fingerprint key id (what catalog versions are keyed by beside the view). */
  fingerprintKeyIdOf(tenantId: string): string {
    return this.cipher.fingerprintKeyFor(tenantId).id;
  }
}
