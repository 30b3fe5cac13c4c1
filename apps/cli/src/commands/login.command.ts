import { whoAmI } from '@gatehouse/commands';
import { CommandClient } from '../api-client/command-client';
import { checkedApiUrl } from '../api-client/api-target';
import { parseCommandArgs, required } from '../cli-args';
import { CliError, usageError, type CliIo } from '../cli-io';
import { writeCredentials } from '../credentials/credentials.store';
import { printHelp, type CliCommand } from './cli-command';

const MAX_TOKEN_LENGTH = 512;

/** The token from GATEHOUSE_TOKEN, else the first line of stdin: never argv (it would sit in shell history and ps). */
async function tokenOf(io: CliIo): Promise<string> {
  const fromEnv = io.env.GATEHOUSE_TOKEN?.trim();
  if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv;
  if (io.stdinIsTerminal) {
    throw usageError(
      'pipe the token on stdin (gatehouse login --api <url> < token-file) or set GATEHOUSE_TOKEN',
    );
  }
  const token = (await io.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
  if (token.length === 0) throw usageError('no token on stdin (or in GATEHOUSE_TOKEN)');
  if (token.length > MAX_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))
    throw usageError('that is not a token');
  return token;
}

export const loginCommand: CliCommand = {
  name: 'login',
  usage: 'gatehouse login --api <url>   (the token on stdin, or in GATEHOUSE_TOKEN)',
  summary: 'Check a user token against the API and store it for the next commands.',
  help: [
    '  --api <url>   the Gatehouse API (https, or http to this machine)',
    'Stored in $XDG_CONFIG_HOME/gatehouse/credentials.json (else ~/.config/gatehouse), the file 0600 and the',
    'directory 0700. A credentials file others can read is refused by every command until fixed.',
  ],
  async run(args, io) {
    const { values } = parseCommandArgs(args, { api: { type: 'string' } });
    if (values.help) return printHelp(io, loginCommand);
    const apiUrl = checkedApiUrl(required(values.api, 'api'), '--api');
    const token = await tokenOf(io);
    const me = await new CommandClient({ apiUrl, token }).call(whoAmI, {});
    if (me.via !== 'user') {
      throw new CliError(
        `gatehouse login stores a user token; this is a ${me.via} token (give it to a command in GATEHOUSE_TOKEN instead)`,
      );
    }
    const path = await writeCredentials(io.env, { v: 1, apiUrl, token });
    io.out(
      `logged in to ${new URL(apiUrl).origin} as ${me.email ?? me.userId ?? '?'} (tenant ${me.tenantSlug})`,
    );
    io.out(`token stored in ${path}`);
  },
};
