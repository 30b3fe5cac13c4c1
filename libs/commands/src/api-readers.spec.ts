import { redactedProjectionView, securityIdentityView } from '@gatehouse/contracts';
import {
  decodeServerEntry,
  materializeDefinition,
  projectDefinition,
  securityIdentityOf,
  type SourceRef,
} from '@gatehouse/definitions';

// The surfaces carry projections and security identities as JSON objects; @gatehouse/contracts says what they
// hold, and the dashboard reads them with those schemas. Here the readers meet what @gatehouse/definitions really
// builds (as the API sends it: through JSON), so a change to the projection that the readers do not know fails
// here, not as an unreadable answer on a page.

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

function built(raw: unknown): { projection: unknown; identity: unknown } {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') throw new Error('expected a valid entry');
  const materialized = materializeDefinition(decoded.definition, { tenant: { TOKEN: 'CANARY-secret' } }).definition;
  const projection = projectDefinition(materialized);
  const identity = securityIdentityOf(materialized, source, projection);
  if (!identity.ok) throw new Error('expected an identity');
  const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
  return { projection: wire(projection), identity: wire(identity.identity) };
}

describe('the contracts readers of definition JSON', () => {
  it.each([
    ['stdio', { command: 'npx', args: ['-y', '@acme/mcp'], env: { API_KEY: '${TOKEN}' }, cwd: '/srv' }],
    ['stdio without env', { command: 'node', args: ['server.js'] }],
    ['http', { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }],
    [
      'http with a helper and options',
      {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headersHelper: ['/usr/local/bin/helper'],
        principalHeader: 'X-Principal',
        requiresTrustedWorkspace: true,
      },
    ],
  ])('read a %s projection and its identity as built', (_label, raw) => {
    const { projection, identity } = built(raw);
    const readProjection = redactedProjectionView.safeParse(projection);
    expect(readProjection.error?.issues ?? []).toEqual([]);
    expect(readProjection.data).toEqual(projection);
    const readIdentity = securityIdentityView.safeParse(identity);
    expect(readIdentity.error?.issues ?? []).toEqual([]);
    expect(readIdentity.data).toEqual(identity);
    expect(JSON.stringify(readProjection.data)).not.toContain('CANARY');
  });
});
