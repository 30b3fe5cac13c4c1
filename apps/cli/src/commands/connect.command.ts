import type { BackoffPolicy } from '@gatehouse/mcp-client';
import { checkedApiUrl } from '../api-client/api-target';
import { parseCommandArgs } from '../cli-args';
import { CliError, usageError } from '../cli-io';
import { GatewayUpstream } from '../connect/gateway-upstream';
import { StdioBridge } from '../connect/mcp-server/stdio-bridge-server';
import { printHelp, type CliCommand } from './cli-command';

const VERSION = '1.0.0';
/** The first connection: a few quick tries (a desktop client waits about a minute for initialize). */
const INITIAL: BackoffPolicy = { baseMs: 250, maxMs: 4_000, maxAttempts: 5 };
/** A lost session: retried longer, each request also asking for one. */
const RECONNECT: BackoffPolicy = { baseMs: 250, maxMs: 30_000, maxAttempts: 12 };
const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
const DEFAULT_KEEPALIVE_MS = 15_000;

function millisecondsOption(text: string | undefined, option: string, fallback: number): number {
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1_000) {
    throw usageError(`--${option} must be a whole number of milliseconds, at least 1000`);
  }
  return value;
}

export const connectCommand: CliCommand = {
  name: 'connect',
  usage: 'gatehouse connect <gateway-url>   (the token in GATEHOUSE_TOKEN)',
  summary: 'Serve a workspace gateway as a stdio MCP server, for clients that only launch stdio servers.',
  help: [
    "  <gateway-url>   https://gateway.example.com/mcp/w/<workspace> (or a server's /mcp/w/<workspace>/s/<name>)",
    '  --request-timeout-ms <n>   bound on one request (default 300000)',
    '  --keepalive-ms <n>         while a request is in flight, ping the gateway this often (default 15000)',
    'stdin/stdout carry MCP; diagnostics go to stderr. Cancellations, progress and list_changed are forwarded;',
    'a lost session is reconnected with backoff. Exit 0 when the client closes stdin, 1 when the gateway refuses',
    'the token, 2 usage, 3 when the gateway cannot be reached at start.',
  ],
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { 'request-timeout-ms': { type: 'string' }, 'keepalive-ms': { type: 'string' } },
      { min: 1, max: 1 },
    );
    if (values.help) return printHelp(io, connectCommand);
    const url = checkedApiUrl(positionals[0], 'the gateway URL');
    const token = io.env.GATEHOUSE_TOKEN?.trim();
    if (token === undefined || token.length === 0)
      throw usageError('set GATEHOUSE_TOKEN (the token is never an argument)');
    const requestTimeoutMs = millisecondsOption(
      values['request-timeout-ms'],
      'request-timeout-ms',
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    const keepaliveMs = millisecondsOption(values['keepalive-ms'], 'keepalive-ms', DEFAULT_KEEPALIVE_MS);
    if (io.streams === undefined) throw new CliError('connect needs the process stdio');

    let bridge: StdioBridge | null = null;
    const upstream = new GatewayUpstream({
      url,
      token,
      initial: INITIAL,
      reconnect: RECONNECT,
      onSession: (session, reconnected) => bridge?.attach(session, reconnected),
      log: (line) => io.err(line),
      clientInfo: { name: 'gatehouse-connect', version: VERSION },
      keepaliveMs,
    });
    const first = await upstream.session();
    bridge = new StdioBridge({
      upstream,
      first,
      stdin: io.streams.stdin,
      stdout: io.streams.stdout,
      requestTimeoutMs,
      version: VERSION,
    });
    bridge.attach(first, false);
    io.err(`gatehouse: connected to ${upstream.origin}; serving MCP on stdio`);
    await bridge.serve();
  },
};
