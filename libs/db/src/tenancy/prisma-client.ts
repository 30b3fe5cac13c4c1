import { PrismaPg } from '@prisma/adapter-pg';
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

export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString: options.url, max: options.poolMax ?? 10 },
    { onPoolError: options.onPoolError, onConnectionError: options.onPoolError },
  );
  return new PrismaClient({ adapter });
}
