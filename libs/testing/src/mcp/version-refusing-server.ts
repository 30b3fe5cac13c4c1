import { join } from 'node:path';

/**
 * A stdio MCP server (version-refusing-server.fixture.cjs, run with node) that answers `initialize` with the
 * specification's error for a protocol version it does not support: a real upstream that no discovery can reach
 * (decision 0142). Its second argv is a marker: its error message carries upstreamWordsOf(marker), which must
 * never reach anyone (the marker itself is in its argv, which definition pages show).
 */
export const VERSION_REFUSING_SERVER = join(__dirname, 'version-refusing-server.fixture.cjs');

/** What the server says of itself in its refusal, given its marker argument (the marker reversed). */
export function upstreamWordsOf(marker: string): string {
  return [...marker].reverse().join('');
}
