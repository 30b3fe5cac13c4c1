import type { RevocationEvent } from '@gatehouse/contracts';
import { evictCachedTokens } from '../auth/token-lookup-cache';

// The API's own holder of the platform revocation stream: its bearer-token cache (decision 0033). Every replica
// drops its cached lookups when a token is revoked or a member is removed or re-roled anywhere (another replica,
// the operator CLI), and, when it cannot be sure it saw every event, drops them all.

const TOKEN_EVENTS: ReadonlySet<RevocationEvent['kind']> = new Set(['token_revoked', 'member_changed']);

export function evictTokensFor(event: RevocationEvent): void {
  if (!TOKEN_EVENTS.has(event.kind)) return;
  evictCachedTokens({
    ...(event.subject.tokenIds ? { tokenIds: event.subject.tokenIds } : {}),
    ...(event.subject.userId ? { userIds: [event.subject.userId] } : {}),
  });
}

export function evictAllTokens(): void {
  evictCachedTokens();
}
