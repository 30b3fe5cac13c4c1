// A stdio MCP server for the transport's integration tests (plain CommonJS, run by node directly). Its tools
// report what the child can see (pid, cwd, env names), fork a grandchild that would outlive a careless close,
// answer with a large result, or never answer.
const { spawn } = require('node:child_process');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');

const server = new McpServer({ name: 'forking-fixture', version: '1.0.0' });
const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

server.registerTool('whoami', { description: 'pid, cwd, env names' }, async () =>
  text({ pid: process.pid, cwd: process.cwd(), env: process.env, uid: process.getuid() }),
);
server.registerTool('fork', { description: 'starts a grandchild in the same process group' }, async () => {
  const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return text({ pid: grandchild.pid });
});
server.registerTool('big', { description: 'a large result' }, async () => text('x'.repeat(64 * 1024)));
server.registerTool('hang', { description: 'never answers' }, () => new Promise(() => {}));

process.stderr.write('fixture stderr: SECRET-STDERR-CANARY\n');
server.connect(new StdioServerTransport());
