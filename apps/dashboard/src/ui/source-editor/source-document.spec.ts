import {
  documentOf,
  entryOf,
  fieldOfProblemPath,
  formOf,
  formProblems,
  mergeImported,
  PLACEHOLDER,
  toJson,
  variablesOf,
  withEntry,
} from './source-document';

const stored = {
  mcpServers: {
    files: {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'srv', '/srv/repo'],
      env: { API_KEY: PLACEHOLDER, HOME_DIR: '${HOME_DIR}' },
      startupTimeoutMs: 20000,
    },
    api: {
      type: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Tenant': '${TENANT:-acme}' },
    },
  },
  $schema: 'https://example.test/schema.json',
};

describe('the source editor document', () => {
  it('round-trips every entry through its form unchanged (placeholders, unknown fields and type kept)', () => {
    const document = documentOf(stored);
    const again = document.entries.reduce(
      (acc, [name, entry]) =>
        withEntry(acc, name, name, entryOf(formOf(name, entry), formOf(name, entry).transport)),
      document,
    );
    expect(toJson(again)).toEqual(stored);
  });

  it('writes only the chosen transport’s fields when the transport changes', () => {
    const form = formOf('files', documentOf(stored).entries[0]?.[1] ?? {});
    const entry = entryOf({ ...form, transport: 'http', url: 'https://x.test/mcp' }, 'stdio');
    expect(entry).toEqual({ type: 'http', url: 'https://x.test/mcp', startupTimeoutMs: 20000 });
  });

  it('names what the form cannot send, by field', () => {
    const form = {
      ...formOf('files', {}),
      name: 'api',
      command: '',
      env: [
        { key: 'A', value: '1' },
        { key: 'A', value: '2' },
      ],
    };
    expect(formProblems(form, ['api'])).toEqual({
      name: expect.stringContaining('already named api') as unknown,
      command: expect.any(String) as unknown,
      env: expect.stringContaining('A is listed twice') as unknown,
    });
  });

  it('finds the variables an entry reads, with or without a default', () => {
    const [, files] = documentOf(stored).entries[0] ?? [];
    const [, api] = documentOf(stored).entries[1] ?? [];
    expect(variablesOf(files ?? {})).toEqual([{ name: 'HOME_DIR', hasDefault: false }]);
    expect(variablesOf(api ?? {})).toEqual([{ name: 'TENANT', hasDefault: true }]);
  });

  it('merges an imported file: new names added at the end, same names replaced in place', () => {
    const merged = mergeImported(
      documentOf(stored),
      documentOf({ mcpServers: { api: { command: 'node' }, notes: { command: 'notes-mcp' } } }),
    );
    expect(merged.added).toEqual(['notes']);
    expect(merged.replaced).toEqual(['api']);
    expect(merged.document.entries.map(([name]) => name)).toEqual(['files', 'api', 'notes']);
  });

  it('points an entry problem at its field', () => {
    expect(fieldOfProblemPath(['args', 2])).toBe('args');
    expect(fieldOfProblemPath(['type'])).toBe('transport');
    expect(fieldOfProblemPath([])).toBe('entry');
  });
});
