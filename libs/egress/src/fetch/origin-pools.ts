// One connection pool per admitted origin, pinned to the addresses admission checked for it. A pool opens
// connections only through its pinned lookup, so every socket goes to an address that was checked; a pool is
// used only while admission keeps answering the same address set. When the answer changes, the pool is retired
// (no new request goes to it; exchanges already on it, open event streams included, finish there, on addresses
// that were checked when they connected) and a new pool is pinned to the new set. The number of pools is bounded:
// the least recently used one is retired first.
import { Agent } from 'undici';
import { createPinnedLookup } from './pinned-lookup.js';

export interface OriginPoolOptions {
  readonly maxOrigins: number;
  readonly connectionsPerOrigin: number;
  /** Bounds connecting and waiting for response headers. */
  readonly timeoutMs: number;
  /** undici's own bound between body bytes: a backstop behind the body's idle bound. */
  readonly idleTimeoutMs: number;
}

export interface OriginPools {
  /** The pool for `origin` pinned to exactly `addresses` (host `hostname`), made or replaced as needed. */
  poolFor(origin: string, hostname: string, addresses: readonly string[]): Agent;
  /** Retires the pool of an origin whose admission was refused. */
  retire(origin: string): void;
  /** Ends every pooled connection, exchanges in flight included. */
  close(): Promise<void>;
}

interface Pinned {
  readonly agent: Agent;
  readonly key: string;
}

const ignore = (): void => undefined;

// Order does not matter (resolvers rotate answers); the set does.
const keyOf = (addresses: readonly string[]): string => [...addresses].sort().join(' ');

export function createOriginPools(options: OriginPoolOptions): OriginPools {
  const pools = new Map<string, Pinned>();
  // Retired pools still finishing their exchanges, so close() can end them too.
  const draining = new Set<Agent>();

  const retireAgent = (agent: Agent): void => {
    // Graceful: what is queued or running on it finishes; nothing new is dispatched to it.
    draining.add(agent);
    agent
      .close()
      .catch(ignore)
      .finally(() => draining.delete(agent));
  };

  return {
    poolFor(origin, hostname, addresses) {
      const key = keyOf(addresses);
      const current = pools.get(origin);
      pools.delete(origin);
      if (current !== undefined && current.key === key) {
        pools.set(origin, current);
        return current.agent;
      }
      if (current !== undefined) retireAgent(current.agent);
      const agent = new Agent({
        connect: { lookup: createPinnedLookup(hostname, addresses), timeout: options.timeoutMs },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.idleTimeoutMs,
        connections: options.connectionsPerOrigin,
      });
      pools.set(origin, { agent, key });
      if (pools.size > options.maxOrigins) {
        const oldest = pools.entries().next();
        if (oldest.done !== true) {
          pools.delete(oldest.value[0]);
          retireAgent(oldest.value[1].agent);
        }
      }
      return agent;
    },
    retire(origin) {
      const current = pools.get(origin);
      if (current === undefined) return;
      pools.delete(origin);
      retireAgent(current.agent);
    },
    async close() {
      const agents = [...[...pools.values()].map((pinned) => pinned.agent), ...draining];
      pools.clear();
      draining.clear();
      await Promise.all(agents.map((agent) => agent.destroy().catch(ignore)));
    },
  };
}
