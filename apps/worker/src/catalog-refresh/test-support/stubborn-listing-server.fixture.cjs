// A stdio MCP server that outlives its client: it answers `initialize`, holds every `tools/list` until the gate
// file named by its first argument exists (then lists one tool), and ignores both its stdin closing and SIGTERM,
// as a careless server might. Only a SIGKILL to its process group ends it. Dependency-free on purpose.
'use strict';
const { existsSync } = require('node:fs');
const gate = process.argv[2];
let buffer = '';
const reply = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
const whenOpen = (answer) => {
  if (existsSync(gate)) return answer();
  setTimeout(() => whenOpen(answer), 50);
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
        serverInfo: { name: 'stubborn-listing', version: '1.0.0' },
      });
    } else if (message.method === 'tools/list') {
      whenOpen(() =>
        reply(message.id, {
          tools: [{ name: 'wait', description: 'waits', inputSchema: { type: 'object', properties: {} } }],
        }),
      );
    } else if (message.id !== undefined && message.method !== undefined) {
      reply(message.id, {});
    }
  }
});
process.stdin.on('end', () => undefined);
process.on('SIGTERM', () => undefined);
setInterval(() => undefined, 60_000);
