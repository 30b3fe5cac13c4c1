import type { ProblemDocument } from '@gatehouse/platform';
import type { CallToolResult } from '@modelcontextprotocol/server';

// What a tool call answers (decision 0112): the command's parsed output as structuredContent with the same JSON
// as a text block (clients that read only `content` see it too), or, for a refusal, isError with the problem
// document of REST in structuredContent (its stable `code`) and one readable line.

/** The most text a result carries; structuredContent is whole (outputs are bounded by their page sizes). */
export const MAX_TEXT_CHARS = 64 * 1024;

export function outputResult(output: unknown): CallToolResult {
  const structured = (output ?? {}) as Record<string, unknown>;
  const text = JSON.stringify(structured, null, 2);
  return {
    content: [
      {
        type: 'text',
        text:
          text.length <= MAX_TEXT_CHARS
            ? text
            : `${text.slice(0, MAX_TEXT_CHARS)}\n… (cut at ${MAX_TEXT_CHARS} characters; structuredContent holds it all)`,
      },
    ],
    structuredContent: structured,
  };
}

export function problemResult(problem: ProblemDocument & { errors?: unknown }): CallToolResult {
  const fields = Array.isArray(problem.errors)
    ? (problem.errors as { path?: unknown; message?: unknown }[])
        .map((e) => `${String(e.path) || '(input)'}: ${String(e.message)}`)
        .join('; ')
    : '';
  const line =
    `${problem.title} (${problem.code}, ${problem.status})` +
    (problem.detail !== undefined ? `: ${problem.detail}` : '') +
    (fields !== '' ? ` [${fields}]` : '');
  return {
    isError: true,
    content: [{ type: 'text', text: line }],
    structuredContent: { ...problem },
  };
}
