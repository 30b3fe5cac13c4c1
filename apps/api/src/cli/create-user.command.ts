import { MEMBERSHIP_ROLES, type MembershipRole } from '@gatehouse/commands';
import { findTenantIdBySlug } from '@gatehouse/db';
import { randomBase62 } from '../auth/opaque-secret';
import { createUser } from '../auth/create-user';
import { normalizeEmail } from '../auth/email-address';
import { parseCommandArgs, required } from './cli-args';
import { OPERATOR_ACTOR, type CliContext } from './cli-context';
import { CliError, usageError } from './cli-io';

export const CREATE_USER_USAGE =
  'gatehouse admin create-user --email EMAIL --name NAME [--password-stdin | --password-env VAR] [--tenant SLUG --role owner|admin|approver|member] [--json]';

/** 24 base62 characters (~143 bits): printed once when the operator gave no password. */
const GENERATED_PASSWORD_LENGTH = 24;

export async function createUserCommand(args: readonly string[], ctx: CliContext): Promise<void> {
  const values = parseCommandArgs(args, {
    email: { type: 'string' },
    name: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    'password-env': { type: 'string' },
    tenant: { type: 'string' },
    role: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const email = required(values.email, 'email');
  const displayName = required(values.name, 'name');
  const membership = await membershipOf(values.tenant, values.role, ctx);
  const { password, generated } = await passwordOf(
    values['password-stdin'] === true,
    values['password-env'],
    ctx,
  );

  const result = await createUser(ctx.database(), ctx.hasher, {
    email,
    displayName,
    password,
    ...(membership ? { membership: { tenantId: membership.tenantId, role: membership.role } } : {}),
    actor: OPERATOR_ACTOR,
  });
  if (!result.ok) {
    switch (result.reason) {
      case 'invalid_email':
        throw new CliError('--email is not an email address');
      case 'invalid_display_name':
        throw new CliError('--name must be 1-120 characters');
      case 'password_too_short':
        throw new CliError('the password is too short (at least 12 characters)');
      case 'password_too_long':
        throw new CliError('the password is too long (at most 256 characters)');
      case 'email_taken':
        throw new CliError(`an account with email ${normalizeEmail(email)} already exists`);
    }
  }
  ctx.print(
    {
      userId: result.user.id,
      email: result.user.email,
      tenant: membership?.slug ?? null,
      role: membership?.role ?? null,
      // Only a password we generated is shown, once; one the operator supplied is never echoed.
      ...(generated ? { password } : {}),
    },
    values.json === true,
  );
}

async function membershipOf(
  tenant: string | undefined,
  role: string | undefined,
  ctx: CliContext,
): Promise<{ tenantId: string; slug: string; role: MembershipRole } | undefined> {
  if (tenant === undefined) {
    if (role !== undefined) throw usageError('--role needs --tenant');
    return undefined;
  }
  if (role === undefined) throw usageError('--tenant needs --role (owner, admin, approver or member)');
  if (!(MEMBERSHIP_ROLES as readonly string[]).includes(role)) {
    throw usageError('--role must be owner, admin, approver or member');
  }
  const tenantId = await findTenantIdBySlug(ctx.database(), tenant);
  if (tenantId === null) throw new CliError(`no tenant with slug ${tenant}`);
  return { tenantId, slug: tenant, role: role as MembershipRole };
}

async function passwordOf(
  fromStdin: boolean,
  envVariable: string | undefined,
  ctx: CliContext,
): Promise<{ password: string; generated: boolean }> {
  if (fromStdin && envVariable !== undefined)
    throw usageError('use either --password-stdin or --password-env, not both');
  if (fromStdin) {
    // One trailing newline is the shell's (`echo`, a here-string), not the password's.
    return { password: (await ctx.io.readStdin()).replace(/\r?\n$/, ''), generated: false };
  }
  if (envVariable !== undefined) {
    const value = ctx.io.env[envVariable];
    if (value === undefined || value.length === 0)
      throw usageError(`the environment variable ${envVariable} is not set`);
    return { password: value, generated: false };
  }
  return { password: randomBase62(GENERATED_PASSWORD_LENGTH), generated: true };
}
