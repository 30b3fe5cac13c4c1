// jest globalTeardown: drops the template database globalSetup migrated for this run (the per-file copies are
// dropped by their own files). Loaded like global-setup.ts, with Node's own module resolution.
import { dropTemplateDatabase, TEMPLATE_DATABASE_ENV } from './template-database';
import { readTestEnv } from './test-env';

// Jest requires the hook as the module's default export.
export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_DATABASE_ENV];
  if (!template) return;
  await dropTemplateDatabase(readTestEnv(), template);
  delete process.env[TEMPLATE_DATABASE_ENV];
}
