import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CliError, usageError } from '../cli-io';

// Where `gatehouse login` keeps the user's token: the OS user's config directory
// ($XDG_CONFIG_HOME/gatehouse, else ~/.config/gatehouse), the directory 0700 and the file 0600, written whole
// (a temporary file created 0600 with O_EXCL, then renamed over the old one) so no reader ever sees a partial or
// wider file. A file that others can read, or that is not this user's, is refused, never read: its token may
// already be someone else's to use.

export const credentialsFile = z.strictObject({
  v: z.literal(1),
  /** The API's base URL the token was checked against. */
  apiUrl: z.string().url().max(2048),
  token: z.string().min(1).max(512),
});
export type Credentials = z.infer<typeof credentialsFile>;

const MAX_FILE_BYTES = 8 * 1024;

export function credentialsDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  if (xdg !== undefined && xdg.startsWith('/')) return join(xdg, 'gatehouse');
  const home = env.HOME;
  if (home === undefined || !home.startsWith('/')) {
    throw usageError('cannot find your config directory: set HOME or XDG_CONFIG_HOME');
  }
  return join(home, '.config', 'gatehouse');
}

export function credentialsPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(credentialsDir(env), 'credentials.json');
}

function ownUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

export async function writeCredentials(
  env: Readonly<Record<string, string | undefined>>,
  credentials: Credentials,
): Promise<string> {
  const dir = credentialsDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const dirStat = await lstat(dir);
  if (!dirStat.isDirectory()) throw new CliError(`${dir} is not a directory`);
  const uid = ownUid();
  if (uid !== null && dirStat.uid !== uid)
    throw new CliError(`${dir} belongs to another user; not writing a token there`);
  // mkdir's mode applies only when it creates the directory: an existing one of ours is narrowed too.
  if ((dirStat.mode & 0o077) !== 0) await chmod(dir, 0o700);

  const target = join(dir, 'credentials.json');
  const temporary = join(dir, `.credentials.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(credentials)}\n`, 'utf8');
    await handle.chmod(0o600);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}

/** The stored credentials, or null when there are none. Refuses a file others may read or that is not ours. */
export async function readCredentials(
  env: Readonly<Record<string, string | undefined>>,
): Promise<Credentials | null> {
  const path = credentialsPath(env);
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw new CliError(`cannot read ${path}`);
  }
  if (!stats.isFile()) throw new CliError(`${path} is not a regular file; refusing to read a token from it`);
  const uid = ownUid();
  if (uid !== null && stats.uid !== uid)
    throw new CliError(`${path} belongs to another user; refusing to read it`);
  if ((stats.mode & 0o077) !== 0) {
    throw new CliError(
      `${path} can be read by others (mode ${(stats.mode & 0o777).toString(8)}); run chmod 600 on it or gatehouse login again`,
    );
  }
  if (stats.size > MAX_FILE_BYTES) throw new CliError(`${path} is not a gatehouse credentials file`);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    throw new CliError(`${path} is not a gatehouse credentials file; run gatehouse login again`);
  }
  const parsed = credentialsFile.safeParse(value);
  if (!parsed.success)
    throw new CliError(`${path} is not a gatehouse credentials file; run gatehouse login again`);
  return parsed.data;
}
