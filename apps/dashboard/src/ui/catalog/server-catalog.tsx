import { CATALOG_TROUBLE_WORDS, catalogTroubles } from '@/server/catalog-trouble';
import type { CatalogServerView, ServerCatalogView } from '@/views/catalog-views';
import { Badge, Callout } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import { serverNotes } from './catalog-labels';
import { CatalogPrompts, CatalogResources } from './catalog-prompts-resources';
import { CatalogToolsTable } from './catalog-tools-table';
import { DiscoveryFailureNote } from './discovery-failure-note';
import { formatUtcTime } from './utc-time';

// One server's part of the catalog lease as the person gets it: its marks (not discovered, discovery failed and
// why, stale, incomplete, left out), when it was last listed and what it announced, then its tools (minted name,
// the remote name, the axes and what decided them, the notes narrowing left), prompts and resources. Nothing here
// comes from the definition: it is what a worker discovered (or reported failing) for this exact fingerprint.

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
            <time dateTime={server.fetchedAt}>{formatUtcTime(server.fetchedAt)}</time>
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
            {server.discoveryFailure ? <DiscoveryFailureNote failure={server.discoveryFailure} /> : null}
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
          <CatalogToolsTable server={server} catalog={catalog} />
          <h3>Prompts</h3>
          <CatalogPrompts server={server} catalog={catalog} />
          <h3>Resources</h3>
          <CatalogResources server={server} catalog={catalog} />
        </>
      )}
    </div>
  );
}
