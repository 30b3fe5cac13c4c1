/**
 * Real-world-shaped definition documents in the public `.mcp.json` format (Claude Code's project file and its
 * `managed-mcp.json`), written for these tests: stdio servers launched through npx, uvx and docker, remote HTTP
 * servers with bearer headers, `${VAR}` and `${VAR:-default}` references, plus Gatehouse's per-server options.
 * Test data only (imported by specs and the bench); not part of the lib's public surface.
 */

/** A team's project `.mcp.json` checked into a repository. */
export const PROJECT_MCP_JSON = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${WORKSPACE_ROOT:-/srv/repo}"],
      "env": {}
    },
    "github": {
      "type": "stdio",
      "command": "docker",
      "args": [
        "run", "-i", "--rm",
        "-e", "GITHUB_PERSONAL_ACCESS_TOKEN",
        "ghcr.io/github/github-mcp-server"
      ],
      "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_PAT}",
        "GITHUB_TOOLSETS": "repos,issues,pull_requests"
      },
      "allowTools": ["get_issue", "list_issues", "create_pull_request"],
      "toolAxes": { "get_issue": { "effect": "read", "egress": false } }
    },
    "sentry": {
      "type": "http",
      "url": "https://mcp.sentry.dev/mcp",
      "headers": { "Authorization": "Bearer \${SENTRY_AUTH_TOKEN}" },
      "oauth": { "clientId": "gatehouse-sentry", "scopes": ["org:read", "project:read"] }
    },
    "internal-docs": {
      "type": "streamable-http",
      "url": "\${DOCS_MCP_URL:-https://docs.internal.example.com/mcp}",
      "headers": { "X-API-Key": "\${DOCS_API_KEY}", "X-Team": "platform" },
      "principalHeader": "X-Agent-Principal",
      "startupTimeoutMs": 15000
    },
    "postgres": {
      "command": "uvx",
      "args": ["postgres-mcp", "--access-mode=restricted"],
      "env": { "DATABASE_URI": "postgresql://app:\${PG_PASSWORD}@db.internal.example.com:5432/app", "NODE_OPTIONS": "--max-old-space-size=512" },
      "cwd": "\${HOME:-/home/agent}/tools"
    },
    "legacy-events": {
      "type": "sse",
      "url": "https://events.example.com/sse"
    }
  }
}`;

/** A user's own servers (the user tier). */
export const USER_MCP_JSON = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_PAT}" }
    },
    "notes": {
      "command": "node",
      "args": ["\${HOME}/bin/notes-mcp.js", "--api-key", "\${NOTES_API_KEY}"]
    },
    "linear": {
      "type": "http",
      "url": "https://mcp.linear.app/mcp"
    }
  }
}`;

/** The tenant's managed policy (the managed tier): may pin content origin. */
export const MANAGED_MCP_JSON = `{
  "mcpServers": {
    "company-search": {
      "type": "http",
      "url": "https://search.corp.example.com/mcp",
      "headers": { "Authorization": "Bearer \${SEARCH_TOKEN}" },
      "contentOrigin": "local",
      "elicitation": false,
      "requiresTrustedWorkspace": true
    }
  }
}`;

/** A plugin that ships a server under a name the project also uses. */
export const PLUGIN_MCP_JSON = `{
  "mcpServers": {
    "filesystem": { "command": "npx", "args": ["-y", "some-plugin-fs"] },
    "plugin-weather": { "type": "http", "url": "https://weather.example.net/mcp" }
  }
}`;
