// jest globalTeardown: drops the per-file copies of the template database globalSetup migrated for this run (a
// few at once: their checkpoints are shared), then the template. Loaded like global-setup.ts, with Node's own
// module resolution.
import { dropTemplateCopies } from './template-copies';
import { dropTemplateDatabase, TEMPLATE_DATABASE_ENV } from './template-database';
import { readTestEnv } from './test-env';

// Jest requires the hook as the module's default export.
export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_DATABASE_ENV];
  if (!template) return;
  const env = readTestEnv();
  await dropTemplateCopies(env, template);
  await dropTemplateDatabase(env, template);
  delete process.env[TEMPLATE_DATABASE_ENV];
}
