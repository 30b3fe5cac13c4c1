import { parseDashboardConfig, type DashboardConfigResult } from '../config/dashboard.config';

let parsed: DashboardConfigResult | undefined;

/**
 * The dashboard's configuration, parsed once per server process on first use (Next.js gives the server no
 * boot hook of ours). A bad variable is reported by every page as `dashboard_misconfigured` instead of a crash.
 */
export function dashboardConfig(): DashboardConfigResult {
  parsed ??= parseDashboardConfig(process.env);
  return parsed;
}
