import { invitationSecret } from '@gatehouse/commands';
import { findLoginByEmail } from '@gatehouse/db';
import { ProblemError } from '@gatehouse/platform';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clientIpOf } from '../auth/client-ip';
import type { IdentityDeps } from '../auth/identity-deps';
import { PASSWORD_MAX_LENGTH } from '../auth/password-hasher';
import { createUser } from '../auth/create-user';
import { ValidationProblemError } from '../shared/command-problems';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { fieldErrorsOf } from '../shared/zod-field-errors';
import { joinRefusalProblem, unusableInvitation } from './invitation-problems';
import { findUsableInvitation, joinInvitedTenant } from './join-invited-tenant';

// The invitation link, for a person who is not signed in (they may have no tenant yet, or no account at all).
// Plain Fastify routes beside the sign-in routes, not admin commands: no credential is involved but the link's
// secret, and a password. A signed-in person accepts through the `invitations.accept` command instead.
//
// What the link tells its holder is only what the inviter wrote (tenant, address, role). Accepting with a
// password answers one way for "wrong password" and for "no such account" alike (401, one argon2 verification
// either way); only creating the account, which needs a display name, differs, and it is throttled like sign-in.

export const INVITATION_LINK_ROUTES = Object.freeze({
  preview: '/v1/auth/invitations/preview',
  accept: '/v1/auth/invitations/accept',
});

const previewBody = z.strictObject({ secret: invitationSecret });
const acceptBody = z.strictObject({
  secret: invitationSecret,
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
  /** Given to create the account when the address has none; ignored when it has one. */
  displayName: z.string().min(1).max(120).optional(),
});

function invalidCredentials(): ProblemError {
  return new ProblemError({
    status: 401,
    code: 'unauthenticated',
    title: 'Unauthenticated',
    detail:
      'The password is wrong, or the account for this address does not exist yet (give a display name to create it).',
  });
}

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ValidationProblemError(fieldErrorsOf(result.error));
  return result.data;
}

export function registerInvitationLinkRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  void app.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(deps.logger));

    scope.post(INVITATION_LINK_ROUTES.preview, async (request, reply) => {
      const { secret } = parsed(previewBody, request.body);
      const invitation = await findUsableInvitation(deps.auth.db, secret, new Date());
      if (invitation === null) throw unusableInvitation();
      return reply.header('cache-control', 'no-store').send({
        tenant: { slug: invitation.tenantSlug, name: invitation.tenantName },
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
      });
    });

    scope.post(INVITATION_LINK_ROUTES.accept, async (request, reply) => {
      const input = parsed(acceptBody, request.body);
      const now = new Date();
      const invitation = await findUsableInvitation(deps.auth.db, input.secret, now);
      if (invitation === null) throw unusableInvitation();
      const ip = clientIpOf(
        { remoteAddress: request.socket.remoteAddress, forwardedFor: request.headers['x-forwarded-for'] },
        deps.trustedProxies,
      );
      const attempt = { email: invitation.email, ip };
      const verdict = await deps.throttle.attempt(attempt);
      if (!verdict.allowed) {
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        throw new ProblemError({
          status: 429,
          code: 'rate_limited',
          title: 'Too many attempts',
          detail:
            'Too many attempts for this account or from this address. Try again after Retry-After seconds.',
        });
      }

      const userId = await (async () => {
        const login = await findLoginByEmail(deps.auth.db, invitation.email);
        if (login !== null) {
          const matches = await deps.hasher.verify(login.passwordHash, input.password);
          return matches && login.disabledAt === null ? login.userId : null;
        }
        if (input.displayName === undefined) {
          await deps.hasher.verifyUnknown(input.password);
          return null;
        }
        const created = await createUser(deps.auth.db, deps.hasher, {
          email: invitation.email,
          displayName: input.displayName,
          password: input.password,
          actor: { type: 'system', id: null, tokenKind: null },
        });
        if (created.ok) return created.user.id;
        if (created.reason === 'email_taken') return null;
        throw new ValidationProblemError([
          {
            path: created.reason === 'invalid_display_name' ? 'displayName' : 'password',
            message: created.reason.replaceAll('_', ' '),
          },
        ]);
      })();
      if (userId === null) throw invalidCredentials();
      await deps.throttle.succeeded(attempt);

      const joined = await deps.checkpoints.run(() =>
        joinInvitedTenant(deps.auth.db, {
          invitation,
          userId,
          actor: { type: 'user', id: userId, tokenKind: null },
          now,
        }),
      );
      if (!joined.ok) throw joinRefusalProblem(joined.reason);
      return reply.header('cache-control', 'no-store').status(201).send({
        tenant: joined.tenant,
        email: invitation.email,
        role: joined.role,
        joinedAt: joined.joinedAt.toISOString(),
      });
    });
  });
}
