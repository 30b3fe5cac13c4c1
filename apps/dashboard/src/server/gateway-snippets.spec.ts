import { claudeAddCommand, clientServerName, gatewayEndpoint, mcpJsonSnippet } from './gateway-snippets';

const WORKSPACE = '11111111-1111-4111-8111-111111111111';

describe('gateway snippets', () => {
  it("builds the workspace endpoint under the gateway's base URL", () => {
    expect(gatewayEndpoint('https://gw.acme.test', WORKSPACE)).toBe(
      `https://gw.acme.test/mcp/w/${WORKSPACE}`,
    );
    expect(gatewayEndpoint('http://127.0.0.1:4200/', WORKSPACE)).toBe(
      `http://127.0.0.1:4200/mcp/w/${WORKSPACE}`,
    );
  });

  it('names the server after the workspace in letters, digits and dashes', () => {
    expect(clientServerName('Editor Space (EU)')).toBe('gatehouse-editor-space-eu');
    expect(clientServerName('***')).toBe('gatehouse-workspace');
  });

  it('writes an .mcp.json whose token comes from the environment, never the snippet', () => {
    const snippet = mcpJsonSnippet('gatehouse-docs', `https://gw.acme.test/mcp/w/${WORKSPACE}`);
    expect(JSON.parse(snippet)).toEqual({
      mcpServers: {
        'gatehouse-docs': {
          type: 'http',
          url: `https://gw.acme.test/mcp/w/${WORKSPACE}`,
          headers: { Authorization: 'Bearer ${GATEHOUSE_TOKEN}' },
        },
      },
    });
    expect(claudeAddCommand('gatehouse-docs', 'https://gw.acme.test/mcp/w/x')).toBe(
      'claude mcp add --transport http gatehouse-docs https://gw.acme.test/mcp/w/x --header "Authorization: Bearer $GATEHOUSE_TOKEN"',
    );
  });
});
