// What a person copies to point an MCP client at a workspace's gateway endpoint (`/mcp/w/:workspaceId`,
// apps/gateway). The token is never in a snippet: the client reads it from an environment variable the person
// sets to an agent (or their own user) token, so a copied snippet can be pasted anywhere.

export const GATEWAY_TOKEN_VARIABLE = 'GATEHOUSE_TOKEN';

export function gatewayEndpoint(gatewayUrl: string, workspaceId: string): string {
  return new URL(`/mcp/w/${encodeURIComponent(workspaceId)}`, gatewayUrl).href;
}

/** A server name for the client's configuration: the workspace's name as letters, digits and dashes. */
export function clientServerName(workspaceName: string): string {
  const slug = workspaceName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `gatehouse-${slug === '' ? 'workspace' : slug}`;
}

/** An `.mcp.json` document with the one server (Streamable HTTP, bearer token from the environment). */
export function mcpJsonSnippet(serverName: string, endpoint: string): string {
  const document = {
    mcpServers: {
      [serverName]: {
        type: 'http',
        url: endpoint,
        headers: { Authorization: `Bearer \${${GATEWAY_TOKEN_VARIABLE}}` },
      },
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The same server added from a shell with Claude Code's CLI (the token expanded by the shell). */
export function claudeAddCommand(serverName: string, endpoint: string): string {
  return `claude mcp add --transport http ${serverName} ${endpoint} --header "Authorization: Bearer $${GATEWAY_TOKEN_VARIABLE}"`;
}
