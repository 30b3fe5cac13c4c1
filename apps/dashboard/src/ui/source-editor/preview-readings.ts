import type { ApiProblem } from '@/server/api-problem';
import type { SourcePreview } from '@/server/actions/source-editor.actions';
import { messageInWords } from '@/server/problem-words';
import { describeProblem } from '@/ui/servers/definition-labels';
import { fieldOfProblemPath } from './source-document';

export type PreviewEntry = SourcePreview['entries'][number];

export interface DocumentError {
  readonly path: string;
  readonly message: string;
}

/** The API's `document.<path>` errors, as paths inside the document. */
export function documentErrors(problem: ApiProblem | null): DocumentError[] {
  if (problem === null) return [];
  return problem.errors
    .filter((error) => error.path === 'document' || error.path.startsWith('document.'))
    .map((error) => ({
      path: error.path.replace(/^document\.?/, ''),
      message: messageInWords(error.message),
    }));
}

/** What the preview says about one entry that does not decode, by the form field it concerns. */
export function decodedProblems(entry: PreviewEntry | undefined): Record<string, string> {
  if (!entry) return {};
  const out: Record<string, string> = {};
  for (const found of entry.problems) {
    const path = Array.isArray(found['path']) ? (found['path'] as unknown[]) : [];
    const field = fieldOfProblemPath(path);
    out[field] = [out[field], describeProblem(found)].filter(Boolean).join('; ');
  }
  if (entry.state === 'rejected')
    out['transport'] = 'This transport is not supported: choose stdio or Streamable HTTP.';
  return out;
}

/** The JSON text in the compact form a preview remembers, or null while it does not parse. */
export function safeCompact(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
