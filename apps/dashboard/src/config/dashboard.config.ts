import { z } from 'zod';

/**
 * The dashboard's environment. It is a separate Next.js build that may import only `contracts`, so it keeps its
 * own small zod schema rather than libs/platform's builders; like the other apps' schemas it is one object whose
 * keys are variable names with `.describe()` texts, so the README table and the compose test read it the same way.
 */
export const dashboardConfigSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'test', 'production'])
    .default('development')
    .describe('Runtime mode. `production` refuses unsafe settings.'),
  DASHBOARD_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_535)
    .default(3000)
    .describe(
      'Port the dashboard listens on (`next start -p`; the Docker image passes it to Next as `PORT`).',
    ),
  API_URL: z
    .url()
    .default('http://127.0.0.1:4000')
    .describe('Base URL of the API as the dashboard server reaches it.'),
  API_PUBLIC_URL: z
    .url()
    .optional()
    .describe(
      "The API's PUBLIC_URL, where authorization servers send the browser back after an OAuth sign-in (default: API_URL). The dashboard finishes a sign-in the API's callback hands on to it on this address.",
    ),
  GATEWAY_URL: z
    .url()
    .optional()
    .describe(
      'Base URL of the gateway as MCP clients reach it: the workspace pages show `<GATEWAY_URL>/mcp/w/<workspace>` and a client configuration to copy. Unset: they say it is not configured.',
    ),
  DASHBOARD_PROXY_HOPS: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      'Reverse proxies in front of the dashboard that append to X-Forwarded-For (0: browsers connect directly). The client IP the dashboard forwards to the API (its login throttle) is read that many entries from the right.',
    ),
});

export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;

export type DashboardConfigResult =
  { ok: true; config: DashboardConfig } | { ok: false; reason: 'invalid_config'; message: string };

/** Parses only the dashboard's variables; an empty value counts as unset, as in the other apps. */
export function parseDashboardConfig(
  env: Readonly<Record<string, string | undefined>>,
): DashboardConfigResult {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(dashboardConfigSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  const result = dashboardConfigSchema.safeParse(picked);
  if (result.success) return { ok: true, config: result.data };
  const message = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
  return { ok: false, reason: 'invalid_config', message };
}
