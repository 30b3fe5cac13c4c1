import { readFileSync, writeFileSync } from 'node:fs';
import { KIND_SCOPES } from '@gatehouse/commands';
import { z } from 'zod';
import { runCli } from '../../apps/api/src/cli/run-cli';
import type { CliIo } from '../../apps/api/src/cli/cli-io';
import type { ProvidedDatabase } from './database.provider';
import { StartFailure } from './start-failure';

// `npm start` gives the worker and the gateway tokens of their own, so the demo discovers and serves tools
// without a manual step. They are minted through the operator CLI's own commands (audited as the operator, the
// gateway token through the owner role like `gatehouse admin create-token`), held only in the two child
// processes' environments, and revoked at the next start: the file beside the local secrets keeps their ids,
// never their secrets. A token the user set (WORKER_TOKEN, GATEWAY_TOKEN) is used instead and nothing is minted.

/** Short: a start's tokens are revoked by the next start, and one left behind by a deleted checkout expires. */
const SERVICE_TOKEN_DAYS = '7';

const mintedSchema = z.object({
  worker: z.object({ id: z.string().uuid(), tenant: z.string().min(1) }).optional(),
  gateway: z.object({ id: z.string().uuid() }).optional(),
});
type MintedIds = z.infer<typeof mintedSchema>;

const printedTokenSchema = z.object({ tokenId: z.string().uuid(), secret: z.string().min(1) });

export interface ServiceTokens {
  readonly workerToken: string | undefined;
  readonly gatewayToken: string | undefined;
  readonly lines: string[];
}

export interface ServiceTokenTarget {
  readonly database: Pick<ProvidedDatabase, 'appUrl' | 'migrationUrl'>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `.gatehouse/service-tokens.json`: the ids of the tokens the previous start minted. */
  readonly idsFile: string;
  readonly tenantSlug: string;
  /** The pool the worker serves (its WORKER_POOL); the gateway leases under the same one. */
  readonly pool: string;
}

export async function provisionServiceTokens(target: ServiceTokenTarget): Promise<ServiceTokens> {
  const cliEnv = {
    DATABASE_URL: target.database.appUrl,
    MIGRATION_DATABASE_URL: target.database.migrationUrl,
    WORKER_POOLS: target.env['WORKER_POOLS'],
  };
  const revoked = await revokePrevious(readIds(target.idsFile), cliEnv);
  const minted: MintedIds = {};
  const lines: string[] = revoked > 0 ? [`revoked ${revoked} service token(s) of the previous start`] : [];

  let workerToken = nonEmpty(target.env['WORKER_TOKEN']);
  if (workerToken === undefined) {
    const token = await mint(cliEnv, [
      '--kind',
      'worker',
      '--name',
      'npm start worker',
      '--tenant',
      target.tenantSlug,
      '--scopes',
      KIND_SCOPES.worker.join(','),
      '--pool',
      target.pool,
    ]);
    minted.worker = { id: token.tokenId, tenant: target.tenantSlug };
    workerToken = token.secret;
    lines.push(`minted a worker token for tenant "${target.tenantSlug}" (held by the worker process only)`);
  }
  let gatewayToken = nonEmpty(target.env['GATEWAY_TOKEN']);
  if (gatewayToken === undefined) {
    const token = await mint(cliEnv, [
      '--kind',
      'gateway',
      '--name',
      'npm start gateway',
      '--scopes',
      KIND_SCOPES.gateway.join(','),
      '--pool',
      target.pool,
    ]);
    minted.gateway = { id: token.tokenId };
    gatewayToken = token.secret;
    lines.push('minted a gateway token (held by the gateway process only)');
  }
  writeFileSync(target.idsFile, `${JSON.stringify(minted, null, 2)}\n`, { mode: 0o600 });
  return { workerToken, gatewayToken, lines };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim().length > 0 ? value : undefined;
}

function readIds(file: string): MintedIds {
  try {
    const parsed = mintedSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

async function revokePrevious(ids: MintedIds, env: CliEnv): Promise<number> {
  let revoked = 0;
  const runs: string[][] = [];
  if (ids.worker) runs.push(['--id', ids.worker.id, '--tenant', ids.worker.tenant]);
  if (ids.gateway) runs.push(['--id', ids.gateway.id]);
  for (const args of runs) {
    // A token already revoked, or gone with a recreated database, is not a reason to stop.
    const result = await cli(env, ['admin', 'revoke-token', ...args, '--json']);
    if (result.code === 0) revoked += 1;
  }
  return revoked;
}

type CliEnv = Readonly<Record<string, string | undefined>>;

async function mint(env: CliEnv, args: string[]): Promise<z.infer<typeof printedTokenSchema>> {
  const result = await cli(env, [
    'admin',
    'create-token',
    ...args,
    '--expires-days',
    SERVICE_TOKEN_DAYS,
    '--json',
  ]);
  const printed = result.code === 0 ? printedTokenSchema.safeParse(safeJson(result.out.at(-1))) : null;
  if (printed?.success !== true) {
    // The CLI's own one-line error (never a secret); the minted secret, if any, is not echoed.
    throw new StartFailure(`could not mint a service token: ${result.err.at(-1) ?? 'no output'}`);
  }
  return printed.data;
}

function safeJson(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}

async function cli(env: CliEnv, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    // Audit checkpoints are JSON lines on stderr; only the CLI's own `gatehouse:` line is worth repeating.
    err: (line) => {
      if (line.startsWith('gatehouse:')) err.push(line);
    },
    env,
    readStdin: () => Promise.resolve(''),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}
