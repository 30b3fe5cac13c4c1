// The client configurations `gatehouse export` writes (decision 0116): every server pointed at its gateway
// passthrough `/mcp/w/:workspaceId/s/:server`, under the name it has in Gatehouse, keeping its transport: an http
// server is an http entry whose Authorization header names the token's environment variable; a stdio server is a
// stdio entry that runs `gatehouse connect` on that URL with the variable passed through. The token itself is
// never written: only a reference the client expands from its own environment.

export const EXPORT_FORMATS = ['claude', 'vscode', 'cursor'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedServer {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
}

export interface ClientConfigOptions {
  readonly format: ExportFormat;
  /** The gateway's base URL (`https://gateway.example.com`). */
  readonly gatewayUrl: string;
  readonly workspaceId: string;
  /** The environment variable that holds the token where the client runs. */
  readonly tokenEnv: string;
  /** The command that runs the bridge (`gatehouse`, on the client's PATH). */
  readonly connectCommand: string;
}

/** `/mcp/w/:workspaceId/s/:server` on the gateway. */
export function passthroughUrl(gatewayUrl: string, workspaceId: string, server: string): string {
  const base = gatewayUrl.replace(/\/+$/, '');
  return `${base}/mcp/w/${encodeURIComponent(workspaceId)}/s/${encodeURIComponent(server)}`;
}

/** How each client spells "the value of this environment variable" inside its config. */
function envReference(format: ExportFormat, name: string): string {
  return format === 'claude' ? `\${${name}}` : `\${env:${name}}`;
}

function entryOf(server: ExportedServer, options: ClientConfigOptions): Record<string, unknown> {
  const url = passthroughUrl(options.gatewayUrl, options.workspaceId, server.name);
  const token = envReference(options.format, options.tokenEnv);
  // Cursor infers the transport from `url` or `command`; Claude Code and VS Code name it.
  const typed = options.format !== 'cursor';
  if (server.transport === 'http') {
    return { ...(typed ? { type: 'http' } : {}), url, headers: { Authorization: `Bearer ${token}` } };
  }
  return {
    ...(typed ? { type: 'stdio' } : {}),
    command: options.connectCommand,
    args: ['connect', url],
    env: { GATEHOUSE_TOKEN: token },
  };
}

/** The whole file: `{ "mcpServers": … }` (Claude Code's .mcp.json, Cursor's mcp.json) or `{ "servers": … }` (VS Code). */
export function clientConfigOf(
  servers: readonly ExportedServer[],
  options: ClientConfigOptions,
): Record<string, unknown> {
  const entries = Object.fromEntries(servers.map((server) => [server.name, entryOf(server, options)]));
  return options.format === 'vscode' ? { servers: entries } : { mcpServers: entries };
}
