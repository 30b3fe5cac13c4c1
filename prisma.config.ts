import { defineConfig } from 'prisma/config';

// Prisma 7 reads the datasource URL from here, never from schema.prisma. Only `generate` and `validate` are
// used on this project's machines (see docs/decisions/0001-migration-runner.md).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.MIGRATION_DATABASE_URL ?? 'postgresql://gatehouse_owner@127.0.0.1:5432/gatehouse' },
});
