import { CATALOG_TROUBLE_WORDS, catalogTroubles } from '@/server/catalog-trouble';
import type { CatalogServerView, ServerCatalogView } from '@/views/catalog-views';
import { DataTable } from '../data-table';
import { Badge, Callout, EmptyState } from '../feedback';
import styles from '../overview.module.css';
import { axesInWords, serverNotes, toolNotes } from './catalog-labels';
import catalogStyles from './catalog.module.css';

// One server's part of the catalog lease as the person gets it: its marks (not discovered, stale, incomplete,
// left out), when it was last listed and what it announced, then its tools (minted name, the remote name, the
// axes and what decided them, the notes narrowing left), prompts and resources. Nothing here comes from the
// definition: it is what a worker discovered for this exact fingerprint.

function formatTime(iso: string): string {
  return (
    new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
    ' UTC'
  );
}

export function CatalogMarks({ server }: { server: CatalogServerView }) {
  const troubles = catalogTroubles(server);
  if (troubles.length === 0) return <Badge tone="positive">Up to date</Badge>;
  return (
    <span className="row">
      {troubles.map((trouble) => (
        <Badge key={trouble} tone={trouble === 'pending_discovery' ? 'caution' : 'negative'}>
          {CATALOG_TROUBLE_WORDS[trouble].label}
        </Badge>
      ))}
    </span>
  );
}

export function ServerCatalog({
  server,
  catalog,
}: {
  server: CatalogServerView;
  /** Its part of the assembled document; absent unless discovered. */
  catalog: ServerCatalogView | undefined;
}) {
  const troubles = catalogTroubles(server);
  const diagnostics = catalog?.diagnostics ?? [];
  const notes = catalog ? serverNotes(diagnostics, server.name) : [];
  return (
    <div className="stack">
      <dl className={styles.definition}>
        <dt>State</dt>
        <dd>
          <CatalogMarks server={server} />
        </dd>
        <dt>Last refresh</dt>
        <dd>
          {server.fetchedAt ? (
            <time dateTime={server.fetchedAt}>{formatTime(server.fetchedAt)}</time>
          ) : (
            <span className="muted">Never</span>
          )}
        </dd>
        <dt>Discovered for</dt>
        <dd>
          {server.discoveredFor === null
            ? '—'
            : server.discoveredFor === 'principal'
              ? 'You (approved per user)'
              : 'The workspace'}
        </dd>
        <dt>Server</dt>
        <dd>
          {server.identity ? (
            <span className="cell-stack">
              <code>
                {server.identity.server} {server.identity.serverVersion}
              </code>
              <span className="muted">Protocol {server.identity.protocolVersion}</span>
            </span>
          ) : (
            <span className="muted">Not known until discovered</span>
          )}
        </dd>
      </dl>
      {troubles.length > 0 ? (
        <Callout tone="warning" title="What agents get">
          <ul>
            {troubles.map((trouble) => (
              <li key={trouble}>{CATALOG_TROUBLE_WORDS[trouble].detail}</li>
            ))}
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Callout>
      ) : notes.length > 0 ? (
        <Callout tone="info" title="Notes">
          <ul>
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {catalog === undefined ? null : (
        <>
          <h3>Tools</h3>
          {catalog.tools.length === 0 ? (
            <EmptyState title="No tools">The server lists no tools.</EmptyState>
          ) : (
            <DataTable
              caption={`Tools of ${server.name}`}
              filterLabel="Filter tools"
              initialSort={{ column: 'name', direction: 'ascending' }}
              columns={[
                { id: 'name', label: 'Tool', sortable: true },
                { id: 'description', label: 'Description' },
                { id: 'axes', label: 'Axes', sortable: true },
                { id: 'notes', label: 'Narrowing notes' },
              ]}
              rows={catalog.tools.map((tool) => {
                const toolNoteList = toolNotes(diagnostics, server.name, tool.remoteName);
                return {
                  id: tool.name,
                  cells: [
                    <span key="name" className="cell-stack">
                      <code className={catalogStyles.name}>{tool.name}</code>
                      <span className="muted">
                        {tool.title ?? tool.remoteName}
                        {tool.title ? ` (${tool.remoteName})` : ''}
                      </span>
                    </span>,
                    <span key="description" className={catalogStyles.description}>
                      {tool.description ?? <span className="muted">No description</span>}
                    </span>,
                    <ul key="axes" className={catalogStyles.plain} aria-label={`Axes of ${tool.name}`}>
                      {axesInWords(tool).map((words) => (
                        <li key={words}>{words}</li>
                      ))}
                    </ul>,
                    toolNoteList.length === 0 ? (
                      <span key="notes" className="muted">
                        None
                      </span>
                    ) : (
                      <ul key="notes" className={catalogStyles.plain}>
                        {toolNoteList.map((note) => (
                          <li key={note}>{note}</li>
                        ))}
                      </ul>
                    ),
                  ],
                  sort: [tool.name, null, tool.axes.effect, null],
                  search: `${tool.name} ${tool.remoteName} ${tool.title ?? ''} ${tool.description ?? ''}`,
                };
              })}
            />
          )}
          <h3>Prompts</h3>
          {catalog.prompts.length === 0 ? (
            <p className="muted">The server lists no prompts.</p>
          ) : (
            <ul className={catalogStyles.entries} aria-label={`Prompts of ${server.name}`}>
              {catalog.prompts.map((prompt) => (
                <li key={prompt.name}>
                  <code className={catalogStyles.name}>{prompt.name}</code>
                  {prompt.description ? <span> — {prompt.description}</span> : null}
                  {prompt.arguments && prompt.arguments.length > 0 ? (
                    <span className="muted">
                      {' '}
                      (arguments: {prompt.arguments.map((argument) => argument.name).join(', ')})
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <h3>Resources</h3>
          {catalog.resources.length === 0 && catalog.resourceTemplates.length === 0 ? (
            <p className="muted">The server lists no resources.</p>
          ) : (
            <ul className={catalogStyles.entries} aria-label={`Resources of ${server.name}`}>
              {catalog.resources.map((resource) => (
                <li key={resource.name}>
                  <code className={catalogStyles.name}>{resource.uri}</code>
                  <span> — {resource.title ?? resource.remoteName}</span>
                  {resource.mimeType ? <span className="muted"> ({resource.mimeType})</span> : null}
                </li>
              ))}
              {catalog.resourceTemplates.map((template) => (
                <li key={template.name}>
                  <code className={catalogStyles.name}>{template.uriTemplate}</code>
                  <span> — {template.title ?? template.remoteName} (template)</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
