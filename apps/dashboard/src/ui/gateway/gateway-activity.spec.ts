import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ApiResult } from '@/server/api-client';
import type { GatewayActivityView } from '@/views/gateway-views';
import { GatewayActivitySection } from './gateway-activity';

// The Gateway panel's live section rendered as the page renders it (server-side markup): numbers in words, the
// outcome and refusal tables with their labels (never the bare codes), the refresh link, and the problem shown
// in words when the read failed.

const WS = '0b5f7a52-8c1e-4d7a-9a43-3f1e9d2c6b10';

function view(overrides: Partial<GatewayActivityView> = {}): GatewayActivityView {
  return {
    workspaceId: WS,
    asOf: '2026-12-01T12:34:56.000Z',
    windowMinutes: 60,
    liveSessions: 3,
    replicas: 2,
    calls: {
      total: 5,
      byOutcome: [
        { outcome: 'ok', count: 4 },
        { outcome: 'upstream_unavailable', count: 1 },
      ],
    },
    refusals: { total: 2, byReason: [{ reason: 'rate_limited_token', count: 2 }] },
    minutes: [],
    ...overrides,
  };
}

function render(activity: ApiResult<GatewayActivityView>): string {
  return renderToStaticMarkup(
    createElement(GatewayActivitySection, {
      activity,
      refreshPath: `/workspaces/${WS}`,
      classes: { table: 'tbl', numeric: 'num' },
    }),
  );
}

const ok = (data: GatewayActivityView): ApiResult<GatewayActivityView> => ({
  ok: true,
  status: 200,
  data,
  headers: new Headers(),
});

describe('GatewayActivitySection', () => {
  it('shows sessions, calls and refusals in words, with the tables labelled', () => {
    const html = render(ok(view()));
    expect(html).toContain('3 open sessions on 2 gateway replicas');
    expect(html).toContain('5 tool calls in the last hour');
    expect(html).toContain('2 refused requests in the last hour');
    expect(html).toContain('<caption>Tool calls in the last hour, by outcome</caption>');
    expect(html).toContain('<td>Answered</td><td class="num">4</td>');
    expect(html).toContain('Failed: the upstream server could not be reached');
    expect(html).toContain('<caption>Refused requests in the last hour, by reason</caption>');
    expect(html).toContain('A token made too many requests (per-token rate limit)');
    expect(html).not.toMatch(/>(rate_limited_token|upstream_unavailable|ok)</);
    // The read's time in the address: a new address each read, so the link loads the page (never only scrolls).
    expect(html).toContain(
      `href="/workspaces/${WS}?activity=${Date.parse('2026-12-01T12:34:56.000Z')}#workspace-gateway"`,
    );
    expect(html).toContain('<time dateTime="2026-12-01T12:34:56.000Z">12:34:56 UTC</time>');
  });

  it('says there was nothing, without empty tables', () => {
    const html = render(
      ok(
        view({
          liveSessions: 0,
          replicas: 0,
          calls: { total: 0, byOutcome: [] },
          refusals: { total: 0, byReason: [] },
        }),
      ),
    );
    expect(html).toContain('0 open sessions');
    expect(html).toContain('No tool calls in the last hour');
    expect(html).toContain('No refused requests in the last hour');
    expect(html).not.toContain('<table');
  });

  it('shows a failed read as an alert in words with the refresh link', () => {
    const html = render({
      ok: false,
      problem: {
        status: 503,
        code: 'dependency_unavailable',
        title: 'Unavailable',
        detail: 'The gateway activity could not be read. Try again.',
        errors: [],
        tenants: [],
      },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('The gateway activity could not be loaded');
    expect(html).toContain('Refresh the counts');
    expect(html).not.toContain('open session');
  });
});
