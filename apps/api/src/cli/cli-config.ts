import { parseConfig, postgresUrlField, secret } from '@gatehouse/platform';
import { z } from 'zod';
import { DEFAULT_WORKER_POOLS, workerPoolsEnvField, type WorkerPools } from '../auth/pool-config';
import { usageError } from './cli-io';

/** The operator CLI's environment: the same variable names as the API's, so one .env serves both. */
export const cliConfigSchema = z.object({
  DATABASE_URL: secret(postgresUrlField())
    .optional()
    .describe(
      'Postgres URL of the app role (gatehouse_app): tenants, users and tenant tokens are written through it.',
    ),
  MIGRATION_DATABASE_URL: secret(postgresUrlField())
    .optional()
    .describe('Postgres URL of the owner role: needed only to create gateway tokens.'),
  WORKER_POOLS: workerPoolsEnvField
    .default(DEFAULT_WORKER_POOLS as Record<string, { tenants: '*' | string[] }>)
    .describe('Worker pools and the tenants each is open to (as for the API).'),
});

export interface CliConfig {
  readonly databaseUrl: string | undefined;
  readonly migrationDatabaseUrl: string | undefined;
  readonly workerPools: WorkerPools;
}

/** Parsed once per run; a bad variable is a one-line usage error (exit 2) that never shows its value. */
export function loadCliConfig(env: Readonly<Record<string, string | undefined>>): CliConfig {
  const parsed = parseConfig(cliConfigSchema, env);
  if (!parsed.ok) throw usageError(parsed.message);
  return {
    databaseUrl: parsed.config.DATABASE_URL,
    migrationDatabaseUrl: parsed.config.MIGRATION_DATABASE_URL,
    workerPools: parsed.config.WORKER_POOLS,
  };
}

export function requireDatabaseUrl(config: CliConfig): string {
  if (config.databaseUrl === undefined)
    throw usageError(
      "DATABASE_URL is not set (the app role's Postgres URL; after npm start: gatehouse_app with the appPassword " +
        'of .gatehouse/local-secrets.json, see README, Operations)',
    );
  return config.databaseUrl;
}

export function requireMigrationDatabaseUrl(config: CliConfig): string {
  if (config.migrationDatabaseUrl === undefined) {
    throw usageError(
      "MIGRATION_DATABASE_URL is not set (the owner role's Postgres URL; only the owner creates gateway tokens)",
    );
  }
  return config.migrationDatabaseUrl;
}
