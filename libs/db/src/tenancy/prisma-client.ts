import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient, type Prisma } from '../generated/client';

/**
 * The Prisma client inside a unit of work (tenant set, or no tenant for definer calls). Repositories in other
 * libs and apps take this type, so they never import Prisma themselves.
 */
export type TenantTx = Prisma.TransactionClient;

export interface PrismaClientOptions {
  url: string;
  poolMax?: number;
  onPoolError?: (error: Error) => void;
}

export interface PooledPrismaClient {
  readonly prisma: PrismaClient;
  /** Disconnects Prisma and ends the pool, so no socket or idle timer outlives the process's use of it. */
  close(): Promise<void>;
}

export function createPrismaClient(options: PrismaClientOptions): PooledPrismaClient {
  // We own the pool (rather than letting the adapter create one) because the adapter's $disconnect leaves
  // idle-connection timers behind; ending the pool ourselves is the only complete shutdown.
  const pool = new Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
  pool.on('error', (error) => options.onPoolError?.(error));
  const adapter = new PrismaPg(pool, {
    onPoolError: options.onPoolError,
    onConnectionError: options.onPoolError,
  });
  const prisma = new PrismaClient({ adapter });
  let closing: Promise<void> | undefined;
  return {
    prisma,
    close: () => {
      closing ??= prisma.$disconnect().finally(() => pool.end());
      return closing;
    },
  };
}
