import { writeFile } from 'node:fs/promises';
import { getEffectiveDefinitions } from '@gatehouse/commands';
import { apiClientFor, checkedApiUrl } from '../api-client/api-target';
import { oneOf, parseCommandArgs, required } from '../cli-args';
import { CliError, usageError } from '../cli-io';
import { clientConfigOf, EXPORT_FORMATS, type ExportedServer } from './client-config';
import { transportOf } from './servers.command';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export const exportCommand: CliCommand = {
  name: 'export',
  usage:
    'gatehouse export --workspace <id> --format claude|vscode|cursor --gateway <url> [--out <file>] [--token-env <VAR>]',
  summary: 'Write a client configuration that reaches every server of a workspace through the gateway.',
  help: [
    '  --workspace <id>     the workspace',
    '  --format <f>         claude (.mcp.json), vscode (.vscode/mcp.json) or cursor (.cursor/mcp.json)',
    '  --gateway <url>      the gateway (default: GATEHOUSE_GATEWAY_URL)',
    '  --out <file>         write there (refuses to replace a file unless --force); stdout otherwise',
    '  --token-env <VAR>    the variable the client reads the token from (default GATEHOUSE_TOKEN)',
    "  --connect-command <c> what runs the stdio bridge (default gatehouse, on the client's PATH)",
    'Every server gets its gateway URL /mcp/w/<workspace>/s/<server>: http servers as http entries with',
    'Authorization: Bearer ${VAR}, stdio servers as `gatehouse connect <url>` with VAR passed through.',
    'The file holds a reference to the token, never the token. Rejected and disabled servers are left out.',
    ...API_HELP.filter((line) => !line.includes('--json')),
  ],
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      api: API_OPTIONS.api,
      workspace: { type: 'string' },
      format: { type: 'string' },
      gateway: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      'token-env': { type: 'string', default: 'GATEHOUSE_TOKEN' },
      'connect-command': { type: 'string', default: 'gatehouse' },
    });
    if (values.help) return printHelp(io, exportCommand);
    const workspaceId = required(values.workspace, 'workspace');
    const format = oneOf(values.format, 'format', EXPORT_FORMATS);
    const gatewayUrl = checkedApiUrl(
      required(values.gateway ?? io.env.GATEHOUSE_GATEWAY_URL, 'gateway'),
      '--gateway',
    );
    const tokenEnv = values['token-env'];
    if (!ENV_NAME.test(tokenEnv)) throw usageError('--token-env must be an environment variable name');
    const client = await apiClientFor(io, values.api);
    const effective = await client.call(getEffectiveDefinitions, { workspaceId, view: 'principal' });

    const servers: ExportedServer[] = [];
    for (const entry of effective.entries) {
      const transport = transportOf(entry);
      if (
        entry.status === 'rejected' ||
        entry.status === 'disabled' ||
        (transport !== 'stdio' && transport !== 'http')
      ) {
        io.err(
          `gatehouse: left out ${entry.name} (${entry.status}${entry.reason !== null ? `: ${entry.reason}` : ''})`,
        );
        continue;
      }
      if (entry.activation.state !== 'approved') {
        io.err(
          `gatehouse: ${entry.name} is ${entry.activation.state}: the gateway serves it once it is approved`,
        );
      }
      servers.push({ name: entry.name, transport });
    }
    const config = clientConfigOf(servers, {
      format,
      gatewayUrl,
      workspaceId,
      tokenEnv,
      connectCommand: values['connect-command'],
    });
    const text = `${JSON.stringify(config, null, 2)}\n`;
    if (values.out === undefined) return io.out(text.trimEnd());
    try {
      await writeFile(values.out, text, { encoding: 'utf8', flag: values.force ? 'w' : 'wx', mode: 0o644 });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new CliError(
        code === 'EEXIST'
          ? `${values.out} exists (pass --force to replace it)`
          : `cannot write ${values.out}`,
      );
    }
    io.out(`wrote ${servers.length} servers to ${values.out}`);
  },
};
