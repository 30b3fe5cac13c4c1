// A stdio MCP server (node's own modules only) whose `steps` tool writes its progress notifications and its
// result in ONE write, so they reach the client in the same chunk: the order a fast server produces by chance,
// made certain. A client must still deliver every progress before it settles the call.
const { createInterface } = require('node:readline');

const tools = [
  { name: 'steps', description: 'Progress then a result, in one write', inputSchema: { type: 'object' } },
];

const line = (message) => `${JSON.stringify(message)}\n`;
const send = (message) => process.stdout.write(line(message));

createInterface({ input: process.stdin }).on('line', (text) => {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return;
  }
  if (message.id === undefined) return; // a notification
  switch (message.method) {
    case 'initialize':
      return send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'progress-fixture', version: '1.0.0' },
        },
      });
    case 'tools/list':
      return send({ jsonrpc: '2.0', id: message.id, result: { tools } });
    case 'tools/call': {
      const progressToken = message.params._meta?.progressToken;
      const steps = [1, 2, 3].map((progress) =>
        line({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken, progress, total: 3 },
        }),
      );
      const result = line({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'done' }] },
      });
      return process.stdout.write(progressToken === undefined ? result : steps.join('') + result);
    }
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
