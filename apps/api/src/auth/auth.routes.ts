import { ProblemError, type ProblemDocument } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ValidationProblemError, unauthenticated } from '../shared/command-problems';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { fieldErrorsOf } from '../shared/zod-field-errors';
import { clientIpOf } from './client-ip';
import type { IdentityDeps } from './identity-deps';
import { PASSWORD_MAX_LENGTH } from './password-hasher';
import { resolveSession } from './resolve-principal';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import type { SignInResult } from './sign-in.use-case';

// Dashboard sign-in, sign-out and the current session, as plain Fastify routes (the dashboard's server calls
// them; they are not admin commands, so they are not in the command registry). Registered in their own
// encapsulated scope with a problem+json error handler, so they answer like every other route wherever
// they are mounted.

export const AUTH_ROUTES = Object.freeze({
  login: '/v1/auth/login',
  logout: '/v1/auth/logout',
  session: '/v1/auth/session',
});

const loginBody = z.strictObject({
  email: z.string().min(1).max(254),
  // Generous, but bounded: the hash of a megabyte password is a CPU bill, not a login.
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
  tenant: z.string().min(1).max(63).optional(),
});

/** A problem with extension members (RFC 9457 §3.2): the tenants a correctly signed-in user may pick from. */
class TenantChoiceProblemError extends ProblemError {
  constructor(
    init: ConstructorParameters<typeof ProblemError>[0],
    private readonly tenants: readonly string[],
  ) {
    super(init);
  }

  override toProblem(instance?: string): ProblemDocument & { tenants: string[] } {
    return { ...super.toProblem(instance), tenants: [...this.tenants] };
  }
}

export function registerAuthRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  void app.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(deps.logger));

    scope.post(AUTH_ROUTES.login, async (request, reply) => {
      const parsed = loginBody.safeParse(request.body);
      if (!parsed.success) throw new ValidationProblemError(fieldErrorsOf(parsed.error));
      const ip = clientIpOf(
        { remoteAddress: request.socket.remoteAddress, forwardedFor: request.headers['x-forwarded-for'] },
        deps.trustedProxies,
      );
      // Inside `run`: the login's audit link is logged as `audit.checkpoint` once its transaction committed.
      const result = await deps.checkpoints.run(() => deps.signIn.execute({ ...parsed.data, ip }));
      if (!result.ok) {
        if (result.reason === 'rate_limited') reply.header('retry-after', String(result.retryAfterSeconds));
        throw signInProblem(result);
      }
      const maxAgeSeconds = Math.floor((result.session.absoluteExpiresAt.getTime() - Date.now()) / 1000);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'set-cookie',
          sessionCookie(result.session.secret, maxAgeSeconds, { secure: deps.secureCookies }),
        )
        .send({
          user: result.user,
          tenant: result.tenant,
          role: result.role,
          csrfToken: result.session.csrfToken,
          expiresAt: result.session.expiresAt.toISOString(),
        });
    });

    scope.post(AUTH_ROUTES.logout, async (request, reply) => {
      const session = await requireSession(request, deps);
      const principal = session.principal;
      const sessionId = principal.sessionId;
      if (sessionId === null) throw unauthenticated();
      await deps.checkpoints.run(() => deps.signOut.execute({ ...principal, sessionId }));
      return reply
        .header('cache-control', 'no-store')
        .header('set-cookie', clearedSessionCookie({ secure: deps.secureCookies }))
        .status(204)
        .send();
    });

    scope.get(AUTH_ROUTES.session, async (request, reply) => {
      const { principal, expiresAt } = await requireSession(request, deps);
      const userId = principal.userId as string;
      const view = await deps.auth.db.withTenant(principal.tenantId, async (tx) => ({
        user: await tx.user.findUnique({
          where: { id: userId },
          select: { id: true, email: true, displayName: true },
        }),
        tenant: await tx.tenant.findUnique({
          where: { id: principal.tenantId },
          select: { id: true, slug: true, name: true },
        }),
      }));
      if (view.user === null || view.tenant === null) throw unauthenticated();
      return reply.header('cache-control', 'no-store').send({
        user: view.user,
        tenant: view.tenant,
        role: principal.role,
        scopes: principal.scopes,
        expiresAt: expiresAt.toISOString(),
      });
    });
  });
}

async function requireSession(request: FastifyRequest, deps: IdentityDeps) {
  const session = await resolveSession(request, deps.auth);
  if (session === null) throw unauthenticated();
  return session;
}

function signInProblem(result: Exclude<SignInResult, { ok: true }>): ProblemError {
  switch (result.reason) {
    case 'rate_limited':
      return new ProblemError({
        status: 429,
        code: 'rate_limited',
        title: 'Too many sign-in attempts',
        detail:
          'Too many sign-in attempts for this account or from this address. Try again after Retry-After seconds.',
      });
    case 'invalid_credentials':
      return new ProblemError({
        status: 401,
        code: 'unauthenticated',
        title: 'Unauthenticated',
        detail: 'The email or the password is wrong.',
      });
    case 'tenant_required':
      return new TenantChoiceProblemError(
        {
          status: 400,
          code: 'tenant_required',
          title: 'Tenant required',
          detail: 'This account belongs to several tenants: name one in `tenant`.',
        },
        result.tenants,
      );
    case 'tenant_not_member':
      return new TenantChoiceProblemError(
        {
          status: 403,
          code: 'tenant_not_member',
          title: 'Not a member of this tenant',
          detail: 'This account is not a member of the named tenant.',
        },
        result.tenants,
      );
    case 'no_membership':
      return new ProblemError({
        status: 403,
        code: 'no_membership',
        title: 'No tenant membership',
        detail: 'This account is not a member of any tenant yet.',
      });
  }
}
