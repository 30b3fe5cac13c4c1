import { loadCliConfig } from './cli-config';
import { CliContext } from './cli-context';
import { CliError, EXIT, type CliIo } from './cli-io';
import { CREATE_TENANT_USAGE, createTenantCommand } from './create-tenant.command';
import { CREATE_TOKEN_USAGE, createTokenCommand } from './create-token.command';
import { CREATE_USER_USAGE, createUserCommand } from './create-user.command';
import { REVOKE_TOKEN_USAGE, revokeTokenCommand } from './revoke-token.command';

type Command = (args: readonly string[], ctx: CliContext) => Promise<void>;

const ADMIN_COMMANDS: Readonly<Record<string, { run: Command; usage: string }>> = Object.freeze({
  'create-tenant': { run: createTenantCommand, usage: CREATE_TENANT_USAGE },
  'create-user': { run: createUserCommand, usage: CREATE_USER_USAGE },
  'create-token': { run: createTokenCommand, usage: CREATE_TOKEN_USAGE },
  'revoke-token': { run: revokeTokenCommand, usage: REVOKE_TOKEN_USAGE },
});

const USAGE = [
  'usage:',
  `  ${CREATE_TENANT_USAGE}`,
  `  ${CREATE_USER_USAGE}`,
  `  ${CREATE_TOKEN_USAGE}`,
  `  ${REVOKE_TOKEN_USAGE}`,
  "revoke-token without --tenant revokes a gateway token; with --tenant, one of that tenant's tokens",
  'environment: DATABASE_URL (app role), MIGRATION_DATABASE_URL (owner role; gateway tokens only), WORKER_POOLS',
];

/**
 * `gatehouse admin <command> [--options]`. Returns the exit code; never throws. Errors are one line on
 * stderr: ours verbatim, anything unexpected (a database that is down) reduced to its class and Postgres
 * code, since driver messages can carry connection details.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [group, name, ...args] = argv;
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    for (const line of USAGE) io.out(line);
    return group === undefined ? EXIT.usage : EXIT.ok;
  }
  // Own keys only: `admin constructor` or `admin toString` must not resolve to Object's prototype.
  const command =
    group === 'admin' && name !== undefined && Object.hasOwn(ADMIN_COMMANDS, name)
      ? ADMIN_COMMANDS[name]
      : undefined;
  if (command !== undefined && args.some((arg) => arg === '--help' || arg === '-h')) {
    // Usage before any configuration or database: --help works on a machine with nothing set.
    io.out(`usage: ${command.usage}`);
    return EXIT.ok;
  }
  if (command === undefined) {
    io.err(
      `gatehouse: unknown command${group === 'admin' && name ? ` admin ${name.slice(0, 40)}` : ''}; run gatehouse --help`,
    );
    return EXIT.usage;
  }

  let ctx: CliContext | undefined;
  try {
    ctx = new CliContext(io, loadCliConfig(io.env));
    const context = ctx;
    await ctx.checkpoints.run(() => command.run(args, context));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`gatehouse: ${error.message}`);
      return error.exitCode;
    }
    io.err(`gatehouse: failed: ${describeUnexpected(error)}`);
    return EXIT.refused;
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

function describeUnexpected(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const rawName = (error as { name?: unknown } | null)?.name;
  const name = typeof rawName === 'string' ? rawName : 'error';
  // Driver and Prisma codes for an unreachable server or refused login: say so without the URL.
  if (code === 'ECONNREFUSED' || code === 'P1001')
    return 'cannot reach Postgres (is the server up and the URL right?)';
  if (code === 'P1000' || code === '28P01' || code === '28000')
    return "Postgres refused the login (check the URL's user and password)";
  return typeof code === 'string' ? `${name} (${code})` : name;
}
