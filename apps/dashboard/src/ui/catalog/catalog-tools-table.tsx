import { DataTable } from '@/ui/data-table';
import { EmptyState } from '@/ui/feedback';
import type { CatalogServerView, ServerCatalogView } from '@/views/catalog-views';
import { axesInWords, toolNotes } from './catalog-labels';
import catalogStyles from './catalog.module.css';

// The tools of one server's catalog: minted name, the remote name, the axes and the notes narrowing left.
export function CatalogToolsTable({
  server,
  catalog,
}: {
  server: CatalogServerView;
  catalog: ServerCatalogView;
}) {
  if (catalog.tools.length === 0) return <EmptyState title="No tools">The server lists no tools.</EmptyState>;
  return (
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
        const toolNoteList = toolNotes(catalog.diagnostics, server.name, tool.remoteName);
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
  );
}
