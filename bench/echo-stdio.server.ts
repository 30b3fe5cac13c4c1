// The gateway-call bench's stdio upstream (bench/gateway-call.bench.ts): one cheap tool, `echo`, on the SDK's own
// McpServer over stdio, so the bench measures the proxies in front of it and not the tool. Run as
// `node dist/bench/echo-stdio.server.js` by the gateway (through its lease) and by mcp-proxy alike.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export function echoServer(): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string().max(1024) } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

if (require.main === module) {
  echoServer()
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`echo-stdio failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
