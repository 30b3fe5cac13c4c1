// A stdio MCP server whose `tools/list` waits on the test: on the request it connects to the test's gate (the TCP
// port of its first argument), announces itself (its name, second argument, and pid), and answers only once the
// gate writes a line back. So the test sees, as events, which servers are inside discovery at once, and decides
// when each may finish. Ends when its stdin ends, as a well-behaved server does. Dependency-free on purpose.
'use strict';
const { connect } = require('node:net');
const [port, name] = process.argv.slice(2);
let buffer = '';
const reply = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
const throughGate = (answer) => {
  const socket = connect(Number(port), '127.0.0.1', () => {
    socket.write(`${JSON.stringify({ name, pid: process.pid })}\n`);
  });
  socket.once('data', () => answer());
  socket.on('error', () => undefined);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    if (message.method === 'initialize') {
      reply(message.id, {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: `gated-${name}`, version: '1.0.0' },
      });
    } else if (message.method === 'tools/list') {
      throughGate(() =>
        reply(message.id, {
          tools: [{ name: 'held', description: 'held', inputSchema: { type: 'object', properties: {} } }],
        }),
      );
    } else if (message.id !== undefined && message.method !== undefined) {
      reply(message.id, {});
    }
  }
});
process.stdin.on('end', () => process.exit(0));
