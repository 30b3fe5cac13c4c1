// A stdio MCP server that answers `initialize` and then never answers a list request: a catalog refresh using it
// stays in discovery (under the startup bound) until something closes it. Exits when its stdin ends, as a
// server does when its client goes away. Dependency-free on purpose.
'use strict';
let buffer = '';
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
      const result = {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'silent-listing', version: '1.0.0' },
      };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
    }
  }
});
process.stdin.on('end', () => process.exit(0));
// Keeps running while its client is connected, like a real server's timers would.
setInterval(() => undefined, 60_000);
