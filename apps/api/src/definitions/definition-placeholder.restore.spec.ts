import { REDACTED } from '@gatehouse/definitions';
import { restorePlaceholders } from './definition-placeholder.restore';

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
