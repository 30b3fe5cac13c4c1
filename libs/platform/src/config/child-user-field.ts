import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { typeLabel } from './config-field.js';

// Who a stdio child or header helper runs as when the process that starts it is root and the lease's pool names
// no `runAs`. A child of a root worker that kept root would hand every tenant's approved command the machine, so
// the default is the `nobody` account, and `self` (the process's own user) is for development and tests only,
// where a checkout other users cannot enter would otherwise hide the fixtures children run.

/** An account a child may run as: never uid or gid 0. */
export interface ChildAccount {
  readonly uid: number;
  readonly gid: number;
}

/** `self`: children run as this process's own user (refused with NODE_ENV=production). */
export type ChildUser = ChildAccount | 'self';

const SPELLING = /^(?:self|[a-z_][a-z0-9_-]{0,31}|\d{1,10}:\d{1,10})$/;

/** The account named in a passwd(5) document, or null. */
export function accountInPasswd(passwd: string, name: string): ChildAccount | null {
  for (const line of passwd.split('\n')) {
    const [entry, , uid, gid] = line.split(':');
    if (entry !== name || uid === undefined || gid === undefined) continue;
    if (!/^\d+$/.test(uid) || !/^\d+$/.test(gid)) return null;
    return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}

/** Parses a CHILD_USER spelling; `passwd` is read only for an account name. */
export function readChildUser(
  value: string,
  passwd: () => string = readPasswd,
): { ok: true; user: ChildUser } | { ok: false; message: string } {
  if (!SPELLING.test(value)) return { ok: false, message: 'must be an account name, uid:gid, or self' };
  if (value === 'self') return { ok: true, user: 'self' };
  const numeric = /^(\d+):(\d+)$/.exec(value);
  const account = numeric
    ? { uid: Number(numeric[1]), gid: Number(numeric[2]) }
    : accountInPasswd(passwd(), value);
  if (account === null) return { ok: false, message: 'names no account of this machine' };
  if (account.uid === 0 || account.gid === 0) return { ok: false, message: 'must not be uid 0 or gid 0' };
  if (account.uid > 2 ** 31 - 1 || account.gid > 2 ** 31 - 1)
    return { ok: false, message: 'is out of range' };
  return { ok: true, user: account };
}

export function childUserField() {
  return (
    typeLabel(
      z
        .string()
        .trim()
        .transform((value, context) => {
          const read = readChildUser(value);
          if (read.ok) return read.user;
          context.addIssue({ code: 'custom', message: read.message });
          return z.NEVER;
        }),
      'account | uid:gid | self',
    )
      // A prefault goes through the transform, so the default account is looked up like a configured one.
      .prefault('nobody')
      .describe(
        'The unprivileged account stdio children and header helpers run as when this process is root and the ' +
          'pool names no runAs. `self` (this process’s own user) is refused when NODE_ENV=production; in ' +
          'production a root process refuses such a child instead (name runAs in the pool).',
      )
  );
}

/** A schema refinement for the apps that start children: `self` is a developer's convenience, never production's. */
export function refuseChildUserSelfInProduction(
  config: { readonly NODE_ENV: string; readonly CHILD_USER: ChildUser },
  context: z.RefinementCtx,
): void {
  if (config.NODE_ENV === 'production' && config.CHILD_USER === 'self') {
    context.addIssue({
      code: 'custom',
      path: ['CHILD_USER'],
      message: 'must name an account when NODE_ENV=production (children would keep this process’s user)',
    });
  }
}
