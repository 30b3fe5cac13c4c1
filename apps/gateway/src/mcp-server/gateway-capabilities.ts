// What the gateway's MCP server declares, in either era: every surface may hold tools, prompts and resources
// (their lists change as upstreams and approvals do), and completions are relayed to the upstream that owns the
// ref (one that declared none offers none, decision 0126). resources/subscribe is not served, so not declared.
export const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true },
  completions: {},
} as const;
