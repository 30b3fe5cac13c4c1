import { isIP } from 'node:net';
import type { CliIo } from '../cli-io';
import { CliError, usageError } from '../cli-io';
import { readCredentials } from '../credentials/credentials.store';
import { CommandClient } from './command-client';

/**
 * Where a command sends its calls and with what token. The API: `--api`, else GATEHOUSE_API_URL, else the URL
 * `gatehouse login` stored. The token: GATEHOUSE_TOKEN, else the stored one, and the stored one only for the API
 * it was checked against (a token is never sent to another host because someone passed another --api).
 */
export async function apiClientFor(io: CliIo, apiOption: string | undefined): Promise<CommandClient> {
  const given = apiOption ?? nonEmpty(io.env.GATEHOUSE_API_URL);
  const envToken = nonEmpty(io.env.GATEHOUSE_TOKEN);
  const stored = envToken === undefined || given === undefined ? await readCredentials(io.env) : null;
  const apiUrl = checkedApiUrl(given ?? stored?.apiUrl, '--api');
  if (envToken !== undefined) return new CommandClient({ apiUrl, token: envToken });
  if (stored === null) {
    throw new CliError('not logged in: run gatehouse login --api <url>, or set GATEHOUSE_TOKEN');
  }
  if (checkedApiUrl(stored.apiUrl, 'the stored API URL') !== apiUrl) {
    throw new CliError(
      `the stored token is for ${new URL(stored.apiUrl).origin}, not ${new URL(apiUrl).origin}: run gatehouse login --api ${new URL(apiUrl).origin}, or set GATEHOUSE_TOKEN`,
    );
  }
  return new CommandClient({ apiUrl, token: stored.token });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim().length === 0 ? undefined : value.trim();
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** Loopback: a name that only ever means this machine, or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(host)) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

/**
 * An http(s) URL without credentials, query or fragment, normalized (trailing slash dropped). Plain http only to
 * loopback: a bearer token is never sent in the clear over a network.
 */
export function checkedApiUrl(value: string | undefined, what: string): string {
  if (value === undefined || value.trim().length === 0) {
    throw usageError(
      'no API URL: pass --api <url>, set GATEHOUSE_API_URL, or run gatehouse login --api <url>',
    );
  }
  if (!URL.canParse(value)) throw usageError(`${what} is not a URL`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw usageError(`${what} must be an http(s) URL`);
  if (url.username !== '' || url.password !== '')
    throw usageError(`${what} must not carry a user or password`);
  if (url.search !== '' || url.hash !== '') throw usageError(`${what} must not carry a query or fragment`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw usageError(
      `${what} must be https (plain http only to this machine): a token is never sent in the clear`,
    );
  }
  return url.href.replace(/\/+$/, '');
}
