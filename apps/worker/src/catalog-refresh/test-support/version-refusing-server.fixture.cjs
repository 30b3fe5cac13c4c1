// A stdio MCP server that speaks only a protocol version no client speaks yet: it answers `initialize` with the
// JSON-RPC error the MCP specification gives for a version it does not support, naming the versions it does, and a
// marker (argv[2]) in its message that must never reach anyone through Gatehouse. Exits when its stdin ends.
// Dependency-free on purpose.
'use strict';
const marker = process.argv[2] ?? 'no-marker';
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
    if (message.method !== 'initialize') continue;
    const error = {
      code: -32602,
      message: `Unsupported protocol version (${marker})`,
      data: { supported: ['2099-01-01'], requested: message.params.protocolVersion },
    };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
setInterval(() => undefined, 60_000);
