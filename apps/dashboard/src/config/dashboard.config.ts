import { z } from 'zod';

/**
 * The dashboard's environment. It is a separate Next.js build that may import only `contracts`, so it keeps its
 * own small schema instead of libs/platform's; the README table and the compose test read this one too.
 */
export const dashboardConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    DASHBOARD_PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
    API_URL: z.url().default('http://127.0.0.1:4000'),
  })
  .strict();

export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;

/** Descriptions for the README's configuration table (`npm run docs:config`). */
export const dashboardConfigDescriptions: Readonly<Record<keyof DashboardConfig, string>> = {
  NODE_ENV: 'development, test or production.',
  DASHBOARD_PORT: 'Port the dashboard listens on (`next start -p`; the Docker image maps it to `PORT`).',
  API_URL: 'Base URL of the API as the dashboard server reaches it.',
};

export type DashboardConfigResult = { ok: true; config: DashboardConfig } | { ok: false; reason: 'invalid_config'; message: string };

/** Parses the variables the dashboard uses, ignoring the rest of the process environment. */
export function parseDashboardConfig(env: Readonly<Record<string, string | undefined>>): DashboardConfigResult {
  const picked = Object.fromEntries(
    Object.keys(dashboardConfigSchema.shape).flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  const result = dashboardConfigSchema.safeParse(picked);
  if (result.success) return { ok: true, config: result.data };
  const message = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  return { ok: false, reason: 'invalid_config', message };
}
