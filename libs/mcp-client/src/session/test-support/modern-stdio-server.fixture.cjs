// A stdio MCP server on the v2 SDK's serveStdio with one tool, `echo`. `reject` (the default): a 2026-07-28-only
// server, which answers a 2025-era `initialize` with the unsupported-protocol-version error naming its revisions;
// `serve`: a dual-era one.
const { McpServer } = require('@modelcontextprotocol/server');
const { serveStdio } = require('@modelcontextprotocol/server/stdio');
const { z } = require('zod');

const legacy = process.argv[2] === 'serve' ? 'serve' : 'reject';
serveStdio(
  () => {
    const server = new McpServer({ name: 'modern-stdio', version: '2.0.0' });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  },
  { legacy },
);
