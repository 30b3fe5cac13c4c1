import fc from 'fast-check';
import { MAX_ARGUMENTS_PER_ENTRY } from './decode-problem';
import { decodeServerEntry } from './definition-decoder';
import { resolveDefinitions } from './definitions-resolver';
import { REDACTED } from './literal-masker';
import { projectDefinition, type RedactedProjection } from './redacted-projection';
import type { SourceRef } from './tier';
import { materializeDefinition, type VariableValues } from './variable-materializer';

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

function project(raw: unknown, variables: VariableValues = {}): RedactedProjection {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') throw new Error('expected valid');
  return projectDefinition(materializeDefinition(decoded.definition, variables).definition);
}

describe('projectDefinition', () => {
  it('keeps the command line readable, with secret stretches as references', () => {
    const projection = project(
      {
        command: 'npx',
        args: ['-y', '@acme/mcp', '--region', '${REGION}', '--token', '${API_TOKEN}', 'Bearer ${GITHUB_PAT}'],
        env: { API_KEY: 'literal-secret', LOG_LEVEL: 'debug' },
        cwd: '${HOME}/work',
      },
      { tenant: { REGION: 'eu-west', API_TOKEN: 'CANARY-1', GITHUB_PAT: 'CANARY-2', HOME: '/home/agent' } },
    );
    expect(projection.transport).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@acme/mcp', '--region', 'eu-west', '--token', '${API_TOKEN}', 'Bearer ${GITHUB_PAT}'],
      commandLine: `npx -y @acme/mcp --region eu-west --token \${API_TOKEN} 'Bearer \${GITHUB_PAT}'`,
      cwd: '/home/agent/work',
      env: { state: 'redacted', keys: ['API_KEY', 'LOG_LEVEL'] },
    });
  });

  it('shows every env and header key by name, a credential-looking one included, and never a value', () => {
    const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const stdio = project({
      command: 'npx',
      args: ['-y', '@acme/mcp'],
      env: {
        npm_config_node_options: '--import=data:text/javascript,CANARY_IMPORT',
        GITHUB_TOKEN: 'CANARY-LITERAL',
        [tokenKey]: 'CANARY-UNDER-TOKEN-KEY',
      },
    });
    expect(stdio.transport).toMatchObject({
      env: { state: 'redacted', keys: ['npm_config_node_options', 'GITHUB_TOKEN', tokenKey] },
    });
    const http = project({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { [tokenKey]: 'CANARY-HEADER', 'X-Api-Key': 'CANARY-KEY' },
    });
    expect(http.transport).toMatchObject({ headers: { state: 'redacted', keys: [tokenKey, 'X-Api-Key'] } });
    expect(JSON.stringify([stdio, http])).not.toMatch(/CANARY|--import/);
  });

  it('shows a reference for a secret stretch wherever it stands', () => {
    const projection = project(
      { command: 'run', args: ['--db=postgres://app:${DB_PASSWORD}@db/app'] },
      { tenant: { DB_PASSWORD: 'pw' } },
    );
    expect(projection.transport.kind === 'stdio' && projection.transport.args).toEqual([
      `--db=postgres://${REDACTED}@db/app`,
    ]);
  });

  it('tells "configured but redacted" from "none"', () => {
    const none = project({ type: 'http', url: 'https://x.example.com/mcp' });
    const some = project({
      type: 'http',
      url: 'https://x.example.com/mcp',
      headers: { Authorization: 'Bearer x' },
    });
    expect(none.transport.kind === 'http' && none.transport.headers).toEqual({ state: 'none' });
    expect(some.transport.kind === 'http' && some.transport.headers).toEqual({
      state: 'redacted',
      keys: ['Authorization'],
    });
  });

  it('masks URL userinfo and credential-named parameters, and secret stretches in the URL', () => {
    const projection = project(
      {
        type: 'http',
        url: 'https://bot:${BOT_PASSWORD}@mcp.example.com/v1/${HOOK_SECRET}/mcp?key=${MAPS_KEY}&lang=en',
      },
      { tenant: { BOT_PASSWORD: 'p', HOOK_SECRET: 'h', MAPS_KEY: 'k' } },
    );
    expect(projection.transport.kind === 'http' && projection.transport.url).toBe(
      `https://${REDACTED}@mcp.example.com/v1/\${HOOK_SECRET}/mcp?key=\${MAPS_KEY}&lang=en`,
    );
  });

  it('carries the options and oauth settings (none of which are secret)', () => {
    const projection = project({
      type: 'http',
      url: 'https://x.example.com',
      oauth: { clientId: 'app', scopes: ['read'] },
      principalHeader: 'X-Principal',
      headersHelper: ['/bin/helper', '--token', 'abc'],
      allowTools: ['a'],
    });
    expect(projection).toEqual({
      transport: {
        kind: 'http',
        url: 'https://x.example.com',
        headers: { state: 'none' },
        headersHelper: ['/bin/helper', '--token', REDACTED],
        oauth: { clientId: 'app', scopes: ['read'], allowSharedCredential: false },
        principalHeader: 'X-Principal',
      },
      requiresTrustedWorkspace: false,
      options: { elicitation: false, allowTools: ['a'] },
    });
  });

  it('projects a large definition (as many arguments as an entry may hold, long ones)', () => {
    const args = Array.from({ length: MAX_ARGUMENTS_PER_ENTRY }, (_, i) =>
      i % 3 === 0 ? '--api-key' : `value-${i}-${'v'.repeat(400)}=\${REGION}`,
    );
    const projection = project({ command: 'x', args }, { tenant: { REGION: 'r'.repeat(10) } });
    expect(projection.transport.kind === 'stdio' && projection.transport.args.length).toBe(
      MAX_ARGUMENTS_PER_ENTRY,
    );
  });
});

// ---- property: no generated secret value ever appears in anything printed ---------------------------------

/** Secrets always hold an upper-case letter and a digit; visible text (below) never does, so any hit is a leak. */
const secretValue = fc
  .stringMatching(/^[A-Za-z0-9 _.:@=/+-]{12,40}$/)
  .filter((s) => /[A-Z]/.test(s) && /[0-9]/.test(s));
const visible = fc.stringMatching(/^[a-z./-]{0,6}$/);
const SECRET_NAMES = ['API_TOKEN', 'DB_PASSWORD', 'GITHUB_PAT', 'SESSION_SECRET'] as const;
const secretRef = fc.constantFrom(...SECRET_NAMES).map((n) => `\${${n}}`);
const plainRef = fc.constant('${REGION}');
const text = fc.array(fc.oneof(visible, secretRef, plainRef), { maxLength: 4 }).map((p) => p.join(''));

const stdioEntry = fc.record({
  command: text.map((t) => `run${t}`),
  args: fc.array(fc.oneof(text, fc.constantFrom('--token', '--api-key', '-e')), { maxLength: 6 }),
  env: fc.dictionary(fc.constantFrom('API_KEY', 'AUTH_TOKEN', 'LOG_LEVEL', 'MODE'), text),
  // A `..` segment is refused at decode (decision 0024).
  cwd: text.map((t) => `/w${t}`).filter((cwd) => !cwd.split('/').includes('..')),
});
const httpEntry = fc.record({
  type: fc.constant('http'),
  url: fc
    .tuple(text, text, text)
    .map(([path, query, user]) => `https://${user ? `u${user}@` : ''}mcp.example.com/${path}?q=${query}`),
  headers: fc.dictionary(fc.constantFrom('Authorization', 'X-Api-Key', 'X-Team'), text),
});

describe('projection property', () => {
  it('never contains a generated secret value (variables, defaults, literals under credential keys)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(stdioEntry, httpEntry), { minLength: 1, maxLength: 4 }),
        fc.record({ API_TOKEN: secretValue, DB_PASSWORD: secretValue, GITHUB_PAT: secretValue }),
        secretValue,
        secretValue,
        fc.constantFrom('principal', 'workspace'),
        (entries, secretVars, literalSecret, defaultSecret, view) => {
          const servers: Record<string, unknown> = {};
          entries.forEach((entry, i) => {
            const e = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
            for (const field of ['env', 'headers'] as const) {
              const map = e[field] as Record<string, string> | undefined;
              if (!map) continue;
              for (const key of Object.keys(map)) {
                if (['API_KEY', 'AUTH_TOKEN', 'Authorization', 'X-Api-Key'].includes(key))
                  map[key] = literalSecret;
              }
            }
            // SESSION_SECRET is never set: its default is the secret.
            servers[`s${i}`] = JSON.parse(
              JSON.stringify(e).split('${SESSION_SECRET}').join(`\${SESSION_SECRET:-${defaultSecret}}`),
            );
          });
          const result = resolveDefinitions({
            sources: [
              {
                tier: 'project',
                origin: 'project:ws',
                readability: 'readable',
                document: JSON.stringify({ mcpServers: servers }),
              },
            ],
            variables: { tenant: { ...secretVars, REGION: 'eu' }, user: { API_TOKEN: secretVars.API_TOKEN } },
            overlays: [],
            view: view === 'principal' ? { kind: 'principal', userId: 'u1' } : { kind: 'workspace' },
            fingerprintKey: { id: 'k1', bytes: new Uint8Array(32).fill(1) },
          });
          const printed = JSON.stringify(result);
          for (const secret of [...Object.values(secretVars), literalSecret, defaultSecret]) {
            expect(printed.includes(secret)).toBe(false);
          }
        },
      ),
    );
  });
});
