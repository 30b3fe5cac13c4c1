/** What a use case records about a mutation. Never a secret: ids, names and outcomes only. */
export interface AuditEventInput {
  readonly actor: {
    readonly type: 'user' | 'token' | 'operator' | 'system';
    readonly id: string | null;
    readonly tokenKind: string | null;
  };
  readonly action: string;
  readonly target: { readonly type: string; readonly id: string | null };
  readonly outcome: 'success' | 'denied' | 'failure';
  readonly data?: Readonly<Record<string, string | number | boolean | null | readonly string[]>>;
}

export interface AuditLink {
  readonly seq: bigint;
  readonly hash: string;
}
