// A stdio MCP server that speaks only a protocol version no client speaks yet: it answers `initialize` with the
// JSON-RPC error the MCP specification gives for a version it does not support, naming the versions it does, and
// words of its own in its message that must never reach anyone through Gatehouse: argv[2] reversed, so they are in
// no definition, argv or page that shows the server's command (version-refusing-server.ts, upstreamWordsOf).
// Exits when its stdin ends. Dependency-free on purpose.
'use strict';
const marker = [...(process.argv[2] ?? 'no-marker')].reverse().join('');
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
