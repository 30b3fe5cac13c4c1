import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isMcpTransportError } from '../transport/transport-error';
import { ProcessGroupStdioTransport } from './process-group-stdio-transport';

// What we write to a child and it has not read is held in our heap. A child that never reads its stdin is failed
// once more than the bound is queued for it (decision 0130), never queued without end; a child that reads gets
// far more than the bound through without a failure.

const NODE = process.execPath;
const BACKLOG = 64 * 1024;
/** A ping carrying 16 KiB of padding: the pipe (64 KiB on Linux) and the bound fill in a few sends. */
const PADDED: JSONRPCMessage = {
  jsonrpc: '2.0',
  method: 'ping',
  id: 1,
  params: { _meta: { pad: 'x'.repeat(16_384) } },
};

function transport(script: string): ProcessGroupStdioTransport {
  return new ProcessGroupStdioTransport({
    command: NODE,
    args: ['-e', script],
    env: {},
    cwd: process.cwd(),
    runAs: null,
    origin: 'stdio:backlog',
    receiveCapBytes: 1024 * 1024,
    sendBacklogBytes: BACKLOG,
    closeGraceMs: 200,
  });
}

const opened: ProcessGroupStdioTransport[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

it('fails a child that never reads its stdin once the bound is queued (send_backlog), and closes it', async () => {
  const child = transport('setInterval(() => undefined, 1000)');
  opened.push(child);
  const errors: unknown[] = [];
  child.onerror = (error) => errors.push(error);
  const closed = new Promise<void>((resolve) => (child.onclose = resolve));
  await child.start();

  let refusal: unknown;
  for (let sent = 0; refusal === undefined && sent < 1_000; sent += 1) {
    // Not awaited: a send to a full pipe settles only when the child reads (this one never does).
    child.send(PADDED).catch((error: unknown) => (refusal = error));
    await new Promise((resolve) => setImmediate(resolve));
  }

  expect(isMcpTransportError(refusal) && refusal.reason).toBe('send_backlog');
  expect(errors.some((error) => isMcpTransportError(error) && error.reason === 'send_backlog')).toBe(true);
  await closed;
  expect(child.pid).toBeNull();
});

it('control: a child that reads gets many times the bound through', async () => {
  const child = transport('process.stdin.resume(); setInterval(() => undefined, 1000)');
  opened.push(child);
  const errors: unknown[] = [];
  child.onerror = (error) => errors.push(error);
  await child.start();

  for (let sent = 0; sent < 64; sent += 1) await child.send(PADDED); // 1 MiB, 16 times the bound
  expect(errors).toEqual([]);
  expect(child.pid).not.toBeNull();
});
