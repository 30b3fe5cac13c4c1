import type { Metadata } from 'next';
import Link from 'next/link';
import { unsetDefinitionVariableAction } from '@/server/actions/definition.actions';
import { redirectIfSessionEnded } from '@/server/current-session';
import { listDefinitionVariables } from '@/server/definition-queries';
import { isVariableScope } from '@/server/definition-permissions';
import { serversPageContext } from '@/server/servers-page-context';
import { ServersContextFailure } from '@/ui/servers/servers-context-failure';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { ServersTabs } from '@/ui/servers/servers-tabs';
import styles from '@/ui/servers/servers.module.css';
import { VariableForm } from '@/ui/servers/variable-form';
import type { VariableScope } from '@/views/definition-views';

export const metadata: Metadata = { title: 'Server variables' };

const SCOPES: Readonly<Record<VariableScope, { label: string; description: string }>> = {
  tenant: { label: 'Tenant', description: 'Every workspace of the tenant. Owners and admins.' },
  workspace: {
    label: 'Workspace',
    description: 'This workspace; outranks tenant variables. Admins and maintainers.',
  },
  user: { label: 'Mine', description: 'Yours alone; outranks workspace and tenant variables in your view.' },
};

// Variables that ${NAME} references expand to. Write-only: the API lists names and "set", never a value, and
// this page never shows one (the value field is never pre-filled).

// Next.js requires a page as the module's default export.
export default async function ServerVariablesPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId } = await params;
  const context = await serversPageContext(workspaceId);
  if (context.kind !== 'ready')
    return <ServersContextFailure context={context} title="Variables could not be loaded" />;
  const { workspace, permissions } = context;
  const asked = firstParam(await searchParams, 'scope') ?? '';
  const readable: VariableScope[] = ['tenant', 'workspace', 'user'];
  const scope: VariableScope = isVariableScope(asked)
    ? asked
    : permissions.variableScopes.includes('workspace')
      ? 'workspace'
      : 'user';
  const writable = permissions.variableScopes.includes(scope);
  const variables = await listDefinitionVariables(scope, workspace.id);
  if (!variables.ok) redirectIfSessionEnded(variables.problem);
  const base = `/servers/${workspace.id}/variables`;

  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/servers">Servers</Link>}
        title={`Variables of ${workspace.name}`}
        description="Values for ${NAME} and ${NAME:-default} in definitions. Write-only: a value is never shown, only whether it is set."
      />
      <ServersTabs workspaceId={workspace.id} current="variables" />
      <nav aria-label="Whose variables">
        <ul className={styles.tabs}>
          {readable.map((candidate) => (
            <li key={candidate}>
              <Link
                className={styles.tab}
                href={`${base}?scope=${candidate}`}
                aria-current={candidate === scope ? 'true' : undefined}
              >
                {SCOPES[candidate].label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted">{SCOPES[scope].description}</p>

      {writable ? (
        <Panel
          id="variable-set"
          title="Set or replace a variable"
          description="Setting an existing name replaces its value."
        >
          <VariableForm scope={scope} workspaceId={workspace.id} />
        </Panel>
      ) : null}

      <Panel id="variable-list" title={`${SCOPES[scope].label} variables`}>
        {!variables.ok ? (
          <ProblemCallout problem={variables.problem} context="Variables could not be loaded" />
        ) : variables.data.items.length === 0 ? (
          <EmptyState title="No variables set">
            {writable
              ? 'Set one above: definitions reference it as ${NAME}.'
              : 'An owner, admin or maintainer sets these.'}
          </EmptyState>
        ) : (
          <DataTable
            caption={`${SCOPES[scope].label} variables`}
            filterLabel="Filter variables"
            columns={[
              { id: 'name', label: 'Name', sortable: true },
              { id: 'state', label: 'Value' },
              { id: 'updated', label: 'Updated', sortable: true },
              { id: 'actions', label: 'Actions', hideLabel: true },
            ]}
            rows={variables.data.items.map((variable) => ({
              id: variable.name,
              cells: [
                <code key="name">{variable.name}</code>,
                <Badge key="state" tone={variable.set ? 'positive' : 'neutral'}>
                  {variable.set ? 'Set' : 'Not set'}
                </Badge>,
                variable.updatedAt ? <DateTime key="updated" value={variable.updatedAt} /> : '—',
                writable ? (
                  <ConfirmAction
                    key="actions"
                    trigger="Unset"
                    triggerVariant="dangerOutline"
                    title={`Unset ${variable.name}?`}
                    description={
                      <p>
                        Definitions that reference ${'{'}
                        {variable.name}
                        {'}'} without a default become unresolved until it is set again.
                      </p>
                    }
                    confirmLabel="Unset variable"
                    confirmVariant="danger"
                    action={unsetDefinitionVariableAction}
                    fields={{ scope, workspaceId: workspace.id, name: variable.name }}
                  />
                ) : null,
              ],
              sort: [variable.name, null, variable.updatedAt, null],
              search: variable.name,
            }))}
          />
        )}
      </Panel>
    </div>
  );
}
