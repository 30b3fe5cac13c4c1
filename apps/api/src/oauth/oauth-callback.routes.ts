// The API's own OAuth redirect URI (decision 0066): `GET /v1/oauth/callback?code&state&iss`, where the
// authorization server sends the browser back. A plain Fastify route (the redirect comes as a query, not a
// command input) that runs `oauth.signIn.complete` on the whole redirect through the one command path
// (caller kinds, scope, validation, output schema): accepted once, by the session or token that started it.
// With a dashboard URL configured (DASHBOARD_URL), the browser is sent on (303) to the dashboard's Connections
// page with the outcome as ids and words only (`?signedIn=<credential id>` or `?signInError=<problem code>`), and a
// browser that brings no API session (the dashboard's own) on to the dashboard's `/connections/finish` with the
// redirect's query, for the dashboard to finish with its session (decision 0089);
// without one the answer is the credential view (state `signed_in`) or a problem+json with a stable code. Never
// a token, and the URL the code came in is neither stored, logged, forwarded as a Referer, nor cached.
import { completeOAuthSignIn, type CommandOutput } from '@gatehouse/commands';
import { ProblemError, type Logger } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal';
import type { WorkerPools } from '../auth/pool-config';
import type { CommandHandler } from '../commands/command-handler';
import { runCommand, type RefusalObserver } from '../commands/command-runner';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { OAUTH_CALLBACK_PATH } from '../oauth-credentials/oauth-runtime';

export interface OAuthCallbackRouteDeps {
  /** The handler of `oauth.signIn.complete`, as the command surfaces run it (audit checkpoints included). */
  readonly complete: CommandHandler;
  readonly resolvePrincipal: (request: FastifyRequest) => Promise<Principal | null>;
  readonly workerPools: WorkerPools;
  /** `${PUBLIC_URL}/v1/oauth/callback`: the redirect is rebuilt on it (the Host header is not trusted). */
  readonly redirectUri: string;
  /** The dashboard's Connections page; null: answer JSON. */
  readonly connectionsUrl: string | null;
  readonly logger: Logger;
  /** The surfaces' refusal observer, so a refused callback is recorded like the command's other calls. */
  readonly onRefused?: RefusalObserver;
}

/** Under the Connections page: the dashboard's route that finishes a sign-in with the dashboard session. */
export const DASHBOARD_FINISH_PATH = '/finish';

function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at);
}

export function registerOAuthCallbackRoute(app: FastifyInstance, deps: OAuthCallbackRouteDeps): void {
  void app.register(async (scope) => {
    const problems = problemErrorHandler(deps.logger);
    scope.setErrorHandler((error: Error, request, reply) => {
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      // A refusal the person should read goes back to the dashboard as its stable code; a fault stays JSON.
      if (deps.connectionsUrl !== null && error instanceof ProblemError)
        return reply.redirect(outcomeUrl(deps.connectionsUrl, 'signInError', error.code), 303);
      return problems(error, request, reply);
    });

    scope.get(OAUTH_CALLBACK_PATH, async (request, reply) => {
      const principal = await deps.resolvePrincipal(request);
      // A browser signed in to the dashboard carries the dashboard's session, never the API's (decision 0089):
      // the redirect goes on, as it came, to the dashboard, which finishes it with that session. Nothing is
      // spent here, so the state stays bound to the session that started the sign-in.
      if (principal === null && deps.connectionsUrl !== null) {
        void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return reply.redirect(`${deps.connectionsUrl}${DASHBOARD_FINISH_PATH}${queryOf(request.url)}`, 303);
      }
      const output = await runCommand({
        command: completeOAuthSignIn,
        handler: deps.complete,
        principal,
        rawInput: { redirectUrl: `${deps.redirectUri}${queryOf(request.url)}` },
        workerPools: deps.workerPools,
        ...(deps.onRefused !== undefined ? { onRefused: deps.onRefused } : {}),
      });
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (deps.connectionsUrl !== null)
        return reply.redirect(
          outcomeUrl(
            deps.connectionsUrl,
            'signedIn',
            (output as CommandOutput<typeof completeOAuthSignIn>).id,
          ),
          303,
        );
      return reply.send(output);
    });
  });
}

function outcomeUrl(connectionsUrl: string, name: 'signedIn' | 'signInError', value: string): string {
  const url = new URL(connectionsUrl);
  url.searchParams.set(name, value);
  return url.href;
}
