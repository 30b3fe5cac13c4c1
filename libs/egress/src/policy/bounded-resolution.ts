// Asking the injected resolver, with nothing it does able to escape as anything but "no addresses": a throw,
// a rejection, an answer of the wrong shape and an answer that never comes (past the deadline) all come back
// as null, which admission reports as `unresolvable`. The resolver's own error text is dropped here: it may
// name addresses or internal DNS servers, which must not reach a tenant.
import type { Resolver } from '../resolver/resolver.port.js';

/** More addresses than this in one answer is not a DNS answer we can check in bounded time: refused. */
export const MAX_RESOLVED_ADDRESSES = 256;

const EXPIRED = Symbol('expired');

// An async function, so a resolver that throws synchronously (or answers a thenable that throws) rejects.
async function ask(resolver: Resolver, hostname: string): Promise<unknown> {
  return resolver.resolve(hostname);
}

// Reads the answer once, into a copy: a getter or a later mutation cannot show the check one thing and the
// connection another. Any property read may throw; the caller catches.
function addressesOf(answer: unknown): readonly string[] | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { ok, addresses } = answer as { readonly ok?: unknown; readonly addresses?: unknown };
  if (ok !== true || !Array.isArray(addresses)) return null;
  const count: unknown = addresses.length;
  if (typeof count !== 'number' || count === 0 || count > MAX_RESOLVED_ADDRESSES) return null;
  const copy: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const address: unknown = addresses[index];
    if (typeof address !== 'string') return null;
    copy.push(address);
  }
  return copy;
}

/** The address strings of a well-formed answer given within `deadlineMs`, else null. Never rejects. */
export async function resolveWithin(
  resolver: Resolver,
  hostname: string,
  deadlineMs: number,
): Promise<readonly string[] | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof EXPIRED>((resolve) => {
    timer = setTimeout(() => resolve(EXPIRED), deadlineMs);
  });
  try {
    // A late answer or rejection lands on the settled race and goes nowhere.
    const answer = await Promise.race([ask(resolver, hostname), expiry]);
    return answer === EXPIRED ? null : addressesOf(answer);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
