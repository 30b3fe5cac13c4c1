// How admission learns the addresses of a host name. Injected, so the policy stays pure and tests need no DNS.
// Answers are address strings in canonical form; anything else is treated as no answer (fail closed).

export type ResolveResult =
  | { readonly ok: true; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly reason: 'unresolvable' };

export interface Resolver {
  /** `hostname` is already normalized: lower case, punycode, no trailing dot, never an IP literal. */
  resolve(hostname: string): Promise<ResolveResult>;
}
