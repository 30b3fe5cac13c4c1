import type {
  auditEventView,
  auditHeadView,
  auditVerificationView,
  createdToken,
  maintainerView,
  memberView,
  sessionView,
  signInView,
  tenantView,
  tokenView,
  workspaceView,
} from '@gatehouse/contracts';
import type { z } from 'zod';

// The shapes the dashboard reads from the API, as the API declares them (@gatehouse/contracts, decision 0063):
// every answer is parsed with the same schema before a page sees it, so these types are what arrived.

/** What a page reads: the parsed answer, read-only all the way down (a page never edits what the API said). */
export type ReadView<T> = T extends readonly (infer U)[]
  ? readonly ReadView<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadView<T[K]> }
    : T;

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

export type SessionView = ReadView<z.output<typeof sessionView>>;
export type SignInView = ReadView<z.output<typeof signInView>>;
export type TenantView = ReadView<z.output<typeof tenantView>>;
export type WorkspaceView = ReadView<z.output<typeof workspaceView>>;
export type MaintainerView = ReadView<z.output<typeof maintainerView>>;
export type MemberView = ReadView<z.output<typeof memberView>>;
export type TokenView = ReadView<z.output<typeof tokenView>>;
export type CreatedTokenView = ReadView<z.output<typeof createdToken>>;
export type AuditEventView = ReadView<z.output<typeof auditEventView>>;
export type AuditHeadView = ReadView<z.output<typeof auditHeadView>>;
export type AuditVerificationView = ReadView<z.output<typeof auditVerificationView>>;
