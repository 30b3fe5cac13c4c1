// The one place test helpers read the environment (test processes have no app config to receive it from).

export interface TestEnv {
  /** Superuser URL of the test cluster: creates roles and per-file databases. */
  adminUrl: string;
  redisUrl: string;
  /** Passwords of the login roles, when the cluster does not trust local connections. */
  ownerPassword: string | undefined;
  appPassword: string | undefined;
}

export function readTestEnv(): TestEnv {
  return {
    adminUrl: process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    ownerPassword: process.env.TEST_DATABASE_OWNER_PASSWORD || undefined,
    appPassword: process.env.TEST_DATABASE_APP_PASSWORD || undefined,
  };
}
