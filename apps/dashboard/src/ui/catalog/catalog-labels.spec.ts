import type { CatalogDiagnosticView, CatalogToolView } from '@/views/catalog-views';
import { axesInWords, serverNotes, toolNotes } from './catalog-labels';

const tool = {
  name: 'mcp__everything__echo',
  remoteName: 'echo',
  inputSchema: { type: 'object' },
  axes: { effect: 'write', egress: true },
  axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
  contentOrigin: 'external',
  source: { tier: 'managed', origin: 'managed:worker' },
} as CatalogToolView;

describe('catalog labels', () => {
  it('says what each axis is and what decided it', () => {
    expect(axesInWords(tool)).toEqual(['Writes (the safe default)', 'Reaches outside (the safe default)']);
    expect(
      axesInWords({
        ...tool,
        axes: { effect: 'read', egress: false, irreversibility: 'never' },
        axesFrom: { effect: 'caller', egress: 'caller', irreversibility: 'server_hint' },
      }),
    ).toEqual([
      'Reads only (declared by the definition)',
      'No egress (declared by the definition)',
      'Reversible (the server’s hint)',
    ]);
  });

  it('keeps the notes of one tool of one server', () => {
    const diagnostics: CatalogDiagnosticView[] = [
      { code: 'schema_narrowed', server: 'everything', tool: 'echo', paths: ['/properties/x'] },
      { code: 'schema_narrowed', server: 'other', tool: 'echo', paths: ['/properties/y'] },
      { code: 'listing_failed', server: 'everything', capability: 'prompts', reason: 'timeout' },
    ];
    expect(toolNotes(diagnostics, 'everything', 'echo')).toEqual([
      'Schema narrowed at /properties/x: any value is accepted there.',
    ]);
    expect(serverNotes(diagnostics, 'everything')).toEqual(['Listing its prompts failed (timeout).']);
  });
});
