import { parseDashboardConfig } from '../config/dashboard.config';

export type ApiStatus =
  | { reachable: true; url: string }
  | { reachable: false; url: string; reason: 'unreachable' | 'unhealthy' | 'misconfigured' };

/** Asks the API's /healthz once, briefly: the page says whether the control plane answers, nothing more. */
export async function readApiStatus(): Promise<ApiStatus> {
  const parsed = parseDashboardConfig(process.env);
  if (!parsed.ok) return { reachable: false, url: '(invalid API_URL)', reason: 'misconfigured' };
  const url = parsed.config.API_URL;
  try {
    const response = await fetch(new URL('/healthz', url), {
      cache: 'no-store',
      signal: AbortSignal.timeout(1500),
    });
    return response.ok ? { reachable: true, url } : { reachable: false, url, reason: 'unhealthy' };
  } catch {
    return { reachable: false, url, reason: 'unreachable' };
  }
}
