import { editableDocumentOf } from './editable-document-redactor';
import { REDACTED } from './literal-masker';

describe('editableDocumentOf', () => {
  it('hides every env and header value but a bare reference, keeping keys and shape', () => {
    const shown = editableDocumentOf({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', '@scope/server', '--token', 'abc123', '--mode=fast'],
          env: { API_KEY: 'plain-looking', FROM_VAR: '${GITHUB_TOKEN}', WITH_DEFAULT: '${X:-literal}', N: 3 },
          cwd: '/srv/tools',
        },
        api: {
          type: 'http',
          url: 'https://user:pw@mcp.example.com/mcp?access_token=t0k&page=2',
          headers: { Authorization: 'Bearer s3cret', 'X-Tenant': '${TENANT_ID}' },
          oauth: { clientId: 'gatehouse-dev', scopes: ['read'] },
        },
      },
    });
    expect(shown).toEqual({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', '@scope/server', '--token', REDACTED, '--mode=fast'],
          env: { API_KEY: REDACTED, FROM_VAR: '${GITHUB_TOKEN}', WITH_DEFAULT: REDACTED, N: REDACTED },
          cwd: '/srv/tools',
        },
        api: {
          type: 'http',
          url: expect.not.stringMatching(/pw|t0k/) as unknown,
          headers: { Authorization: REDACTED, 'X-Tenant': '${TENANT_ID}' },
          oauth: { clientId: 'gatehouse-dev', scopes: ['read'] },
        },
      },
    });
  });

  it('shows every env and header key by name, a credential-looking one included, values hidden', () => {
    const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const shown = editableDocumentOf({
      mcpServers: {
        files: {
          command: 'npx',
          env: {
            npm_config_node_options: '--import=data:CANARY',
            GITHUB_TOKEN: 'CANARY-2',
            [tokenKey]: 'CANARY-3',
          },
        },
        api: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { [tokenKey]: 'CANARY-4' } },
      },
    });
    expect(shown).toEqual({
      mcpServers: {
        files: {
          command: 'npx',
          env: { npm_config_node_options: REDACTED, GITHUB_TOKEN: REDACTED, [tokenKey]: REDACTED },
        },
        api: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { [tokenKey]: REDACTED } },
      },
    });
    expect(JSON.stringify(shown)).not.toMatch(/CANARY|--import/);
  });

  it('masks credential-shaped literals wherever they are, and a reference named like a credential', () => {
    const token = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const shown = JSON.stringify(
      editableDocumentOf({
        mcpServers: { a: { command: token, env: { K: '${ghp_0123456789abcdefABCDEF0123456789abcd}' } } },
        note: `keep ${token}`,
      }),
    );
    expect(shown).not.toContain(token);
  });

  it('keeps `__proto__` as a key and leaves a non-object document masked as text', () => {
    const parsed = JSON.parse('{"mcpServers":{"__proto__":{"command":"x"}}}') as unknown;
    const shown = editableDocumentOf(parsed) as { mcpServers: object };
    expect(Object.keys(shown.mcpServers)).toEqual(['__proto__']);
    expect(editableDocumentOf('Bearer abc')).toBe(`Bearer ${REDACTED}`);
  });
});
