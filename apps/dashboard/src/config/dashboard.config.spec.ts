import { parseDashboardConfig } from './dashboard.config';

describe('parseDashboardConfig', () => {
  it('defaults the port and API URL and treats empty values as unset', () => {
    const result = parseDashboardConfig({ DASHBOARD_PORT: '', UNRELATED: 'x' });
    expect(result).toEqual({
      ok: true,
      config: {
        NODE_ENV: 'development',
        DASHBOARD_PORT: 3000,
        API_URL: 'http://127.0.0.1:4000',
        DASHBOARD_PROXY_HOPS: 0,
      },
    });
  });

  it('reads the port and API URL from the environment', () => {
    const result = parseDashboardConfig({ DASHBOARD_PORT: '3100', API_URL: 'http://api:4000' });
    expect(result.ok && result.config).toMatchObject({ DASHBOARD_PORT: 3100, API_URL: 'http://api:4000' });
  });

  it('names a bad variable without echoing its value', () => {
    const result = parseDashboardConfig({ DASHBOARD_PORT: 'seventy', API_URL: 'not a url' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('DASHBOARD_PORT');
    expect(result.message).toContain('API_URL');
    expect(result.message).not.toContain('seventy');
  });
});
