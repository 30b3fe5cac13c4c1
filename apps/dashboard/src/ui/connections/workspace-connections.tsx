import type { ApiResult } from '@/server/api-client';
import type { ApiProblem } from '@/server/api-problem';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import type { Page } from '@/views/api-views';
import type { OAuthCredentialView } from '@/views/catalog-views';
import { OAuthServersTable, type OAuthServerRow } from './oauth-servers-table';
import { ServiceCredentialsTable } from './service-credentials-table';

// One workspace's side of the connections: its servers that use OAuth as the person gets them, and for owners
// and admins (`services` read) the service credentials shared with it.
export function WorkspaceConnections({
  workspace,
  serversProblem,
  oauthServers,
  services,
  can,
}: {
  workspace: { readonly id: string; readonly name: string };
  serversProblem: ApiProblem | null;
  oauthServers: readonly OAuthServerRow[];
  services: ApiResult<Page<OAuthCredentialView>> | undefined;
  can: { readonly signInToServers: boolean; readonly manageWorkspaces: boolean };
}) {
  return (
    <>
      <Panel
        id="connections-servers"
        title={`Servers of ${workspace.name} that use OAuth`}
        description="As you get them: your own sign-in is used first, then the workspace’s service credential where the definition allows shared use."
      >
        {serversProblem !== null ? (
          <ProblemCallout problem={serversProblem} context="The servers could not be loaded" />
        ) : oauthServers.length === 0 ? (
          <EmptyState title="No server here uses OAuth">
            Servers whose definition declares OAuth appear here with their sign-in state.
          </EmptyState>
        ) : (
          <OAuthServersTable workspace={workspace} oauthServers={oauthServers} can={can} />
        )}
      </Panel>
      {services ? (
        <Panel
          id="connections-service-credentials"
          title={`Service credentials of ${workspace.name}`}
          description="Sign-ins shared with the workspace: each serves everyone here without a sign-in of their own. Signing the workspace out deletes it, ends the leases that carried it and asks the issuer to revoke it."
        >
          {!services.ok ? (
            <ProblemCallout
              problem={services.problem}
              context="The service credentials could not be loaded"
            />
          ) : services.data.items.length === 0 ? (
            <EmptyState title="No service credentials">
              Share your own sign-in with the workspace above, for a server whose definition allows it.
            </EmptyState>
          ) : (
            <ServiceCredentialsTable workspace={workspace} serviceItems={services.data.items} />
          )}
        </Panel>
      ) : null}
    </>
  );
}
