import type { CatalogServerView, ServerCatalogView } from '@/views/catalog-views';
import catalogStyles from './catalog.module.css';

// The prompts one server's catalog lists, with the names of their arguments.
export function CatalogPrompts({
  server,
  catalog,
}: {
  server: CatalogServerView;
  catalog: ServerCatalogView;
}) {
  if (catalog.prompts.length === 0) return <p className="muted">The server lists no prompts.</p>;
  return (
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
  );
}

// The resources and resource templates one server's catalog lists.
export function CatalogResources({
  server,
  catalog,
}: {
  server: CatalogServerView;
  catalog: ServerCatalogView;
}) {
  if (catalog.resources.length === 0 && catalog.resourceTemplates.length === 0)
    return <p className="muted">The server lists no resources.</p>;
  return (
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
  );
}
