import { editableDocumentOf, REDACTED } from '@gatehouse/definitions';
import { restorePlaceholders } from './definition-placeholder-restore';

const stored = {
  mcpServers: {
    api: {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer s3cret-value' },
    },
  },
};

describe('restorePlaceholders', () => {
  it('keeps a stored secret sent back as the placeholder', () => {
    const sent = { mcpServers: { api: { ...stored.mcpServers.api, headers: { Authorization: REDACTED } } } };
    expect(restorePlaceholders(sent, stored)).toEqual({ ok: true, value: stored });
  });

  it('refuses a placeholder where nothing was stored', () => {
    const sent = { mcpServers: { api: { ...stored.mcpServers.api, headers: { 'X-Key': REDACTED } } } };
    expect(restorePlaceholders(sent, stored)).toMatchObject({
      ok: false,
      reason: 'placeholder_mismatch',
      paths: ['mcpServers.api.headers.X-Key'],
    });
  });

  it('refuses to keep a secret for an entry whose destination changed', () => {
    const sent = {
      mcpServers: {
        api: { type: 'http', url: 'https://attacker.example/mcp', headers: { Authorization: REDACTED } },
      },
    };
    expect(restorePlaceholders(sent, stored)).toMatchObject({
      ok: false,
      reason: 'destination_changed',
      paths: ['mcpServers.api'],
    });
  });

  it('lets the destination change when the secret is sent in full', () => {
    const sent = {
      mcpServers: {
        api: { type: 'http', url: 'https://elsewhere.example/mcp', headers: { Authorization: 'Bearer new' } },
      },
    };
    expect(restorePlaceholders(sent, stored)).toMatchObject({ ok: true });
  });

  it('keeps a stored argument sent back as the projection showed it: masked, and its invisible characters escaped', () => {
    const withArg = { mcpServers: { tool: { command: 'node', args: ['a\u202e token=s3cret'] } } };
    const sent = { mcpServers: { tool: { command: 'node', args: [`a\\u202E token=${REDACTED}`] } } };
    expect(restorePlaceholders(sent, withArg)).toEqual({ ok: true, value: withArg });
  });
});

describe('restorePlaceholders after editableDocumentOf', () => {
  const document = {
    mcpServers: {
      files: {
        command: 'npx',
        args: ['-y', 'srv', '--api-key', 'k3y-value', '--password=hunter2', 'Authorization: Bearer abc'],
        env: { TOKEN: 'plain', FROM: '${GITHUB_TOKEN}', DEFAULTED: '${X:-fallback}' },
        cwd: '/srv/token=abc',
      },
      api: {
        type: 'http',
        url: 'https://me:pw@mcp.example.com/mcp?access_token=t0k#secret=s',
        headers: {
          Authorization: 'Bearer s3cret-value',
          'X-Api-Key': 'ghp_0123456789abcdefABCDEF0123456789abcd',
        },
        headersHelper: ['/usr/bin/helper', '--token', 'zzz'],
      },
    },
  };

  it('maps the whole editable document sent back unchanged to the stored document', () => {
    const shown = editableDocumentOf(document);
    expect(JSON.stringify(shown)).not.toMatch(/k3y-value|hunter2|s3cret|t0k|ghp_|zzz|plain|fallback/);
    expect(restorePlaceholders(shown, document)).toEqual({ ok: true, value: document });
  });
});

describe('hidden keys', () => {
  it('hides a token-shaped server name and a long key, and maps both back on save', () => {
    const long = 't'.repeat(600);
    const document = {
      mcpServers: {
        ghu_AAAAAAAAAAAAAAAAAAAAAAAA: { command: 'npx', env: { TOKEN: 'k3y' } },
        github: { type: 'http', url: 'https://x.test/mcp', toolAxes: { [long]: { effect: 'read' } } },
      },
    };
    const shown = editableDocumentOf(document);
    expect(JSON.stringify(shown)).not.toMatch(/ghu_A|tttttttttt|k3y/);
    expect(Object.keys((shown as { mcpServers: object }).mcpServers)).toEqual(['[REDACTED #0]', 'github']);
    expect(restorePlaceholders(shown, document)).toEqual({ ok: true, value: document });
  });
});

describe('env and header keys shown by name', () => {
  it('round-trips a credential-looking key sent back as itself, keeping its stored value', () => {
    const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const document = {
      mcpServers: {
        runner: {
          command: 'npx',
          env: { npm_config_node_options: '--import=./evil.mjs', [tokenKey]: 's3cret' },
        },
        api: { type: 'http', url: 'https://x.test/mcp', headers: { [tokenKey]: 'Bearer s3cret' } },
      },
    };
    const shown = editableDocumentOf(document) as typeof document;
    expect(Object.keys(shown.mcpServers.runner.env)).toEqual(['npm_config_node_options', tokenKey]);
    expect(Object.keys(shown.mcpServers.api.headers)).toEqual([tokenKey]);
    expect(JSON.stringify(shown)).not.toMatch(/evil|s3cret/);
    expect(restorePlaceholders(shown, document)).toEqual({ ok: true, value: document });
  });
});
