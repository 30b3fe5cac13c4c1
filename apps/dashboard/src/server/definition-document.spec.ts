import { parseDefinitionDocument } from './definition-document';

describe('parseDefinitionDocument', () => {
  it('reads a JSON object', () => {
    expect(parseDefinitionDocument('{ "mcpServers": {} }')).toEqual({ ok: true, document: { mcpServers: {} } });
  });

  it('refuses empty text, arrays and scalars', () => {
    expect(parseDefinitionDocument('  ').ok).toBe(false);
    expect(parseDefinitionDocument('[]')).toEqual({
      ok: false,
      message: 'The document must be a JSON object: { "mcpServers": { … } }.',
    });
    expect(parseDefinitionDocument('42').ok).toBe(false);
  });

  it('says where invalid JSON broke without quoting the text (which may hold a secret)', () => {
    const result = parseDefinitionDocument('{\n  "mcpServers": { "a": { "env": { "K": "s3cr3t-value" } }\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/^This is not valid JSON/);
    expect(result.message).not.toContain('s3cr3t');
  });
});
