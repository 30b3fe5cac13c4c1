// A stdio MCP server with no dependencies at all (plain CommonJS, node's own modules only), so it can be copied
// into a directory an unprivileged user can read and run from there: the runAs tests need a child that reports
// the uid and gid it runs as, which no published server tells. It speaks just enough of the protocol: initialize
// (echoing the client's protocol version), ping, tools/list and tools/call for `whoami` and `hang`.
const { createInterface } = require('node:readline');

const tools = [
  { name: 'whoami', description: 'uid, gid, pid and cwd of this process', inputSchema: { type: 'object' } },
  { name: 'hang', description: 'never answers', inputSchema: { type: 'object' } },
];

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const result = (id, value) => send({ jsonrpc: '2.0', id, result: value });

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return; // a notification
  switch (message.method) {
    case 'initialize':
      return result(message.id, {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'identity-fixture', version: '1.0.0' },
      });
    case 'ping':
      return result(message.id, {});
    case 'tools/list':
      return result(message.id, { tools });
    case 'tools/call': {
      if (message.params.name === 'hang') return;
      const who = { uid: process.getuid(), gid: process.getgid(), pid: process.pid, cwd: process.cwd() };
      return result(message.id, { content: [{ type: 'text', text: JSON.stringify(who) }] });
    }
    default:
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
