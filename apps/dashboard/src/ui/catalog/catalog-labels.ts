import type { CatalogDiagnosticView, CatalogToolView } from '@/views/catalog-views';

// The words of the catalog views: the tool axes (what a tool may do, and what decided it) and the notes a build
// left on a tool (narrowed schema paths, a face that did not fit, the caller's axes contradicting themselves).

export const EFFECT_WORDS: Readonly<Record<CatalogToolView['axes']['effect'], string>> = {
  read: 'Reads only',
  idempotent: 'Writes, idempotent',
  write: 'Writes',
};

const FROM_WORDS: Readonly<Record<string, string>> = {
  caller: 'declared by the definition',
  default: 'the safe default',
  server_hint: 'the server’s hint',
  absent: 'not stated',
};

export function axesInWords(tool: CatalogToolView): readonly string[] {
  const { axes, axesFrom } = tool;
  const words = [
    `${EFFECT_WORDS[axes.effect]} (${FROM_WORDS[axesFrom.effect] ?? axesFrom.effect})`,
    `${axes.egress ? 'Reaches outside' : 'No egress'} (${FROM_WORDS[axesFrom.egress] ?? axesFrom.egress})`,
  ];
  if (axes.irreversibility !== undefined) {
    words.push(
      `${axes.irreversibility === 'always' ? 'Irreversible' : 'Reversible'} (${FROM_WORDS[axesFrom.irreversibility] ?? axesFrom.irreversibility})`,
    );
  }
  return words;
}

/** The notes of one tool of one server: what narrowing and the build changed about it. */
export function toolNotes(
  diagnostics: readonly CatalogDiagnosticView[],
  server: string,
  remoteName: string,
): readonly string[] {
  const notes: string[] = [];
  for (const diagnostic of diagnostics) {
    if (!('server' in diagnostic) || diagnostic.server !== server) continue;
    switch (diagnostic.code) {
      case 'schema_narrowed':
        if (diagnostic.tool === remoteName)
          notes.push(`Schema narrowed at ${diagnostic.paths.join(', ')}: any value is accepted there.`);
        break;
      case 'tool_face_invalid':
        if (diagnostic.tool === remoteName) notes.push('Its face did not fit the schema and is not applied.');
        break;
      case 'tool_axes_contradiction':
        if (diagnostic.tool === remoteName)
          notes.push('The declared effect was lowered while egress stayed on: it stays a write.');
        break;
      case 'name_collision':
        if (diagnostic.kind === 'tool' && diagnostic.remoteName === remoteName)
          notes.push(
            diagnostic.resolution === 'renamed'
              ? `Its name collided with ${diagnostic.winner.server}/${diagnostic.winner.remoteName}: renamed.`
              : `Its name collided with ${diagnostic.winner.server}/${diagnostic.winner.remoteName}: not mounted.`,
          );
        break;
      default:
        break;
    }
  }
  return notes;
}

/** The notes about the server as a whole: listings that failed, entries not mounted. */
export function serverNotes(
  diagnostics: readonly CatalogDiagnosticView[],
  server: string,
): readonly string[] {
  const notes: string[] = [];
  for (const diagnostic of diagnostics) {
    if (!('server' in diagnostic) || diagnostic.server !== server) continue;
    switch (diagnostic.code) {
      case 'listing_failed':
        notes.push(`Listing its ${diagnostic.capability} failed (${diagnostic.reason}).`);
        break;
      case 'invalid_remote_name':
        notes.push(`A ${diagnostic.kind.replace('_', ' ')} with an unusable name was not mounted.`);
        break;
      case 'duplicate_remote_name':
        notes.push(
          `It listed the ${diagnostic.kind.replace('_', ' ')} ${diagnostic.remoteName} twice: the first is mounted.`,
        );
        break;
      case 'uri_collision':
        notes.push(`${diagnostic.remoteName} has the URI of one of ${diagnostic.winnerServer}: not mounted.`);
        break;
      case 'allow_tools_unlisted':
      case 'tool_axes_undeclared':
      case 'tool_face_undeclared':
        notes.push(`The definition names a tool ${diagnostic.tool} the server does not list.`);
        break;
      default:
        break;
    }
  }
  return notes;
}
