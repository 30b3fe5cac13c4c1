// A stdio MCP server (node's own modules only) that floods its connection during one call: its `flood` tool writes
// 20,000 progress notifications of the call, 20,000 log messages and 20,000 tools/list_changed, then its result;
// `echo` just answers. Writes wait for the pipe to drain, as a well-behaved (if hostile) server's would.
const { createInterface } = require('node:readline');
const { once } = require('node:events');

const FLOOD = 20_000;
const tools = ['flood', 'echo'].map((name) => ({ name, inputSchema: { type: 'object' } }));

async function send(message) {
  if (!process.stdout.write(`${JSON.stringify(message)}\n`)) await once(process.stdout, 'drain');
}

async function flood(id, progressToken) {
  for (let i = 1; i <= FLOOD && progressToken !== undefined; i += 1)
    await send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: i } });
  for (let i = 0; i < FLOOD; i += 1)
    await send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${i}` } });
  for (let i = 0; i < FLOOD; i += 1)
    await send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  await send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'survived' }] } });
}

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
      return void send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: { listChanged: true }, logging: {} },
          serverInfo: { name: 'flood-fixture', version: '1.0.0' },
        },
      });
    case 'tools/list':
      return void send({ jsonrpc: '2.0', id: message.id, result: { tools } });
    case 'tools/call':
      if (message.params.name === 'flood') return void flood(message.id, message.params._meta?.progressToken);
      return void send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'echo' }] },
      });
    default:
      return void send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: 'Method not found' },
      });
  }
});
