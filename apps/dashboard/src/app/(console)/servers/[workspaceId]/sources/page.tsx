import type { Metadata } from 'next';
import Link from 'next/link';
import { redirectIfSessionEnded } from '../../../../../server/current-session';
import { getDefinitionSource, listDefinitionSources } from '../../../../../server/definition-queries';
import { isDefinitionTier } from '../../../../../server/definition-permissions';
import { serversPageContext } from '../../../../../server/servers-page-context';
import { ServersContextFailure } from '../../../../../ui/servers/servers-context-failure';
import { DateTime } from '../../../../../ui/date-time';
import { Badge, Callout, EmptyState, Panel, ProblemCallout } from '../../../../../ui/feedback';
import { PageHeader } from '../../../../../ui/page-header';
import { firstParam, type SearchParams } from '../../../../../ui/paging';
import { describeProblem, problemPath, TIER_LABELS } from '../../../../../ui/servers/definition-labels';
import { TargetSummary } from '../../../../../ui/servers/server-parts';
import { ServersTabs } from '../../../../../ui/servers/servers-tabs';
import styles from '../../../../../ui/servers/servers.module.css';
import { SourceEditorForm } from '../../../../../ui/servers/source-editor-form';
import type { DefinitionSourceSummaryView, DefinitionTier } from '../../../../../views/definition-views';

export const metadata: Metadata = { title: 'Server sources' };

const EXAMPLE = `{
  "mcpServers": {
  }
}
`;

/** The stored source a tier's editor writes, among those the person may read. */
function sourceFor(
  sources: readonly DefinitionSourceSummaryView[],
  tier: DefinitionTier,
  workspaceId: string,
  userId: string,
  name: string,
): DefinitionSourceSummaryView | undefined {
  const origin = {
    managed: `managed:${name}`,
    plugin: `plugin:${name}`,
    project: `project:${workspaceId}`,
    local: `local:${workspaceId}:${userId}`,
    user: `user:${userId}`,
  }[tier];
  return sources.find((source) => source.origin === origin);
}

// Source editing: the tiers the person may write (managed, local, project, user, plugin as their role and
// maintainership allow), the stored source as the API projects it (never the document), and a JSON editor for
// the whole document. Errors the API names by path show under the editor.

// Next.js requires a page as the module's default export.
export default async function ServerSourcesPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId } = await params;
  const context = await serversPageContext(workspaceId);
  if (context.kind !== 'ready')
    return <ServersContextFailure context={context} title="Sources could not be loaded" />;
  const { workspace, permissions, userId } = context;
  const query = await searchParams;
  const asked = firstParam(query, 'tier') ?? '';
  const tiers = permissions.tiers;
  const tier: DefinitionTier | undefined =
    isDefinitionTier(asked) && tiers.includes(asked)
      ? asked
      : (tiers.find((t) => t === 'project') ?? tiers[0]);
  const name = (firstParam(query, 'name') ?? '').trim();
  const base = `/servers/${workspace.id}/sources`;

  const header = (
    <>
      <PageHeader
        breadcrumb={<Link href="/servers">Servers</Link>}
        title={`Sources of ${workspace.name}`}
        description="Definition documents per tier, in the .mcp.json format. Writing a source never approves a server."
      />
      <ServersTabs workspaceId={workspace.id} current="sources" />
    </>
  );
  if (tier === undefined) {
    return (
      <div className="stack">
        {header}
        <EmptyState title="No tier you may write">
          Your role does not include writing server definitions. Ask an owner or admin.
        </EmptyState>
      </div>
    );
  }

  const sources = await listDefinitionSources(workspace.id);
  if (!sources.ok) redirectIfSessionEnded(sources.problem);
  const tenantWide = tier === 'managed' || tier === 'plugin';
  const existing = sources.ok ? sourceFor(sources.data.items, tier, workspace.id, userId, name) : undefined;
  const stored = existing ? await getDefinitionSource(existing.id) : undefined;
  const namedOfTier = sources.ok ? sources.data.items.filter((source) => source.tier === tier) : [];

  return (
    <div className="stack">
      {header}
      <nav aria-label="Tier">
        <ul className={styles.tabs}>
          {tiers.map((candidate) => (
            <li key={candidate}>
              <Link
                className={styles.tab}
                href={`${base}?tier=${candidate}`}
                aria-current={candidate === tier ? 'true' : undefined}
              >
                {TIER_LABELS[candidate].label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted">{TIER_LABELS[tier].description}</p>
      {!sources.ok ? (
        <ProblemCallout problem={sources.problem} context="Sources could not be listed" />
      ) : null}

      {tenantWide && namedOfTier.length > 0 ? (
        <Panel id="tier-sources" title={`${TIER_LABELS[tier].label} sources`}>
          <ul className={styles.keys}>
            {namedOfTier.map((source) => {
              const sourceName = source.origin.slice(tier.length + 1);
              return (
                <li key={source.id}>
                  <Link href={`${base}?tier=${tier}&name=${encodeURIComponent(sourceName)}`}>
                    {source.origin}
                  </Link>
                </li>
              );
            })}
            <li>
              <Link href={`${base}?tier=${tier}`}>New {tier} source</Link>
            </li>
          </ul>
        </Panel>
      ) : null}

      {stored && !stored.ok ? (
        <ProblemCallout problem={stored.problem} context="The stored source could not be read" />
      ) : null}
      {stored?.ok ? (
        <Panel
          id="stored-source"
          title={`Stored: ${stored.data.origin}`}
          description={
            <>
              Version {stored.data.version}, updated <DateTime value={stored.data.updatedAt} />. The API never
              returns the document itself: these are its entries as projected.
            </>
          }
        >
          <div className="stack-sm">
            {stored.data.problems.length > 0 ? (
              <Callout tone="warning" title="Source problems">
                <ul>
                  {stored.data.problems.map((problem, index) => (
                    <li key={index}>
                      {problemPath(problem) ? <code>{problemPath(problem)}</code> : null}{' '}
                      {describeProblem(problem)}
                    </li>
                  ))}
                </ul>
              </Callout>
            ) : null}
            {stored.data.entries.length === 0 ? (
              <p className="muted">No entries.</p>
            ) : (
              <ul className="stack-sm" aria-label="Stored entries">
                {stored.data.entries.map((entry) => (
                  <li key={entry.name} className="row">
                    <strong>{entry.name}</strong>
                    <Badge tone={entry.state === 'valid' ? 'positive' : 'negative'}>{entry.state}</Badge>
                    {entry.projection ? <TargetSummary projection={entry.projection} /> : null}
                    {entry.transport ? <code>{entry.transport}</code> : null}
                    {(entry.problems ?? []).map((problem, index) => (
                      <span key={index} className="muted">
                        <code>{problemPath(problem) || entry.name}</code> {describeProblem(problem)}
                      </span>
                    ))}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Panel>
      ) : null}

      <Panel
        id="source-editor"
        title={existing ? `Replace the ${tier} source` : `Write the ${tier} source`}
        description={
          existing
            ? 'Send the whole document: it replaces the stored one (version ' +
              String(existing.version) +
              ').'
            : 'Paste an .mcp.json document or write one.'
        }
      >
        <SourceEditorForm
          key={`${tier}:${name}`}
          tier={tier}
          workspaceId={workspace.id}
          name={tenantWide ? { value: name, editable: existing === undefined } : undefined}
          expectedVersion={existing?.version ?? null}
          initialText={existing ? '' : EXAMPLE}
        />
      </Panel>
    </div>
  );
}
