// The source editor's text, read before it is sent: JSON with an object at the root. The API judges the rest
// (the format, each entry) and names the paths; this only catches what cannot be sent at all. The parser's own
// message is not passed on: it quotes the text around the error, which may be a secret.

export type ParsedDocument =
  | { readonly ok: true; readonly document: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly message: string };

export const MAX_DOCUMENT_LENGTH = 512 * 1024;

/** Line and column (1-based) of a character offset, for "not JSON" without quoting the text. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

export function parseDefinitionDocument(text: string): ParsedDocument {
  if (text.trim() === '') return { ok: false, message: 'Enter a document: { "mcpServers": { … } }.' };
  if (text.length > MAX_DOCUMENT_LENGTH) return { ok: false, message: 'The document is larger than 512 KiB.' };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
    const where = position?.[1] === undefined ? '' : ` near ${lineAndColumn(text, Number(position[1]))}`;
    return { ok: false, message: `This is not valid JSON${where}.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'The document must be a JSON object: { "mcpServers": { … } }.' };
  }
  return { ok: true, document: value as Record<string, unknown> };
}
