import fc from 'fast-check';
import { inspect } from 'node:util';
import {
  resolveDefinitions,
  type DefinitionSourceInput,
  type ResolveInput,
  type ResolveResult,
} from './definitions-resolver';
import type { ActiveEntry, EffectiveEntry } from './effective-entry';
import { REDACTED } from './literal-masker';
import { materializedDefinitionOf } from './materialized-access';
import { MANAGED_MCP_JSON, PLUGIN_MCP_JSON, PROJECT_MCP_JSON, USER_MCP_JSON } from './mcp-json.fixtures';
import type { Tier } from './tier';

const readable = (tier: Tier, origin: string, document: unknown): DefinitionSourceInput => ({
  tier,
  origin,
  readability: 'readable',
  document: typeof document === 'string' ? document : JSON.stringify(document),
});
const unreadable = (tier: Tier, origin: string): DefinitionSourceInput => ({
  tier,
  origin,
  readability: 'unreadable',
});
const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });
const fingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(1) };

function resolve(partial: Partial<ResolveInput> & Pick<ResolveInput, 'sources'>): ResolveResult {
  return resolveDefinitions({
    variables: {},
    overlays: [],
    view: { kind: 'principal', userId: 'u1' },
    fingerprintKey,
    ...partial,
  });
}

function entry(result: ResolveResult, name: string): EffectiveEntry {
  const found = result.entries.find((e) => e.name === name);
  if (!found) throw new Error(`no entry ${name}`);
  return found;
}

// ---- the real-world-shaped fixture set, end to end ---------------------------------------------------------

describe('resolveDefinitions: Claude Code .mcp.json fixtures', () => {
  const CANARY_PAT = 'ghp_CANARYcanary0123456789ABCDEFabcdef01';
  const CANARY_PG = 'CanaryPgPassword-0001';
  const fixtureSources = [
    readable('managed', 'managed:org-policy', MANAGED_MCP_JSON),
    readable('project', 'project:ws1', PROJECT_MCP_JSON),
    readable('user', 'user:u1', USER_MCP_JSON),
    readable('plugin', 'plugin:weather', PLUGIN_MCP_JSON),
  ];
  const variables = {
    tenant: {
      GITHUB_PAT: CANARY_PAT,
      SENTRY_AUTH_TOKEN: 'CanarySentry-1',
      SEARCH_TOKEN: 'CanarySearch-1',
      PG_PASSWORD: CANARY_PG,
    },
    workspace: { DOCS_API_KEY: 'CanaryDocs-1' },
    user: { NOTES_API_KEY: 'CanaryNotes-1', HOME: '/home/u1' },
  };
  const result = resolve({ sources: fixtureSources, variables });

  it('lists every name with its status and winning tier', () => {
    expect(
      result.entries.map((e) => [e.name, e.status, e.status === 'disabled' ? null : e.source.tier]),
    ).toEqual([
      ['company-search', 'resolved', 'managed'],
      ['filesystem', 'resolved', 'project'],
      ['github', 'resolved', 'project'],
      ['internal-docs', 'resolved', 'project'],
      ['legacy-events', 'rejected', 'project'],
      ['linear', 'resolved', 'user'],
      ['notes', 'resolved', 'user'],
      ['plugin-weather', 'resolved', 'plugin'],
      ['postgres', 'resolved', 'project'],
      ['sentry', 'resolved', 'project'],
    ]);
    expect(result.problems).toEqual([]);
  });

  it('shadows whole entries: the project github beats the user one, the project filesystem the plugin one', () => {
    const github = entry(result, 'github');
    expect(github.status === 'resolved' && github.shadowed).toEqual([
      { source: { tier: 'user', origin: 'user:u1' }, state: 'valid' },
    ]);
    const fs = entry(result, 'filesystem');
    expect(fs.status === 'resolved' && fs.shadowed).toEqual([
      { source: { tier: 'plugin', origin: 'plugin:weather' }, state: 'valid' },
    ]);
    expect(
      fs.status === 'resolved' &&
        fs.projection.transport.kind === 'stdio' &&
        fs.projection.transport.commandLine,
    ).toBe('npx -y @modelcontextprotocol/server-filesystem /srv/repo');
  });

  it('applies env-var defaults and records where each variable came from', () => {
    const docs = entry(result, 'internal-docs');
    if (docs.status !== 'resolved') throw new Error('resolved expected');
    expect(docs.variables).toEqual([
      { variable: 'DOCS_MCP_URL', from: 'default' },
      { variable: 'DOCS_API_KEY', from: 'workspace' },
    ]);
    expect(docs.projection.transport).toEqual({
      kind: 'http',
      url: 'https://docs.internal.example.com/mcp',
      headers: { state: 'redacted', keys: ['X-API-Key', 'X-Team'] },
      headersHelper: null,
      oauth: null,
      principalHeader: 'X-Agent-Principal',
    });
    expect(docs.identity.display).toBe('https://docs.internal.example.com:443/mcp');
    expect(docs.perUser).toBe(false);
  });

  it('marks entries that depend on the user for per-user approval', () => {
    const notes = entry(result, 'notes');
    expect(notes.status === 'resolved' && notes.perUser).toBe(true);
    const postgres = entry(result, 'postgres');
    // cwd reads ${HOME}, which this user sets.
    expect(postgres.status === 'resolved' && postgres.perUser).toBe(true);
    expect(
      postgres.status === 'resolved' &&
        postgres.projection.transport.kind === 'stdio' &&
        postgres.projection.transport.cwd,
    ).toBe('/home/u1/tools');
  });

  it('keeps contentOrigin from the managed tier and shows the projection of every option', () => {
    const search = entry(result, 'company-search');
    expect(search.status === 'resolved' && search.projection.options).toEqual({
      elicitation: false,
      contentOrigin: 'local',
    });
    expect(search.status === 'resolved' && search.projection.requiresTrustedWorkspace).toBe(true);
  });

  it('never prints a canary secret, while the lease builder can still get it deliberately', () => {
    const printed = JSON.stringify(result);
    const inspected = inspect(result, { showHidden: true, depth: null });
    const cloned = JSON.stringify(structuredClone(result));
    for (const value of [
      ...Object.values(variables.tenant),
      ...Object.values(variables.workspace),
      'CanaryNotes-1',
    ]) {
      expect(printed).not.toContain(value);
      expect(inspected).not.toContain(value);
      expect(cloned).not.toContain(value);
    }
    const github = entry(result, 'github');
    if (github.status !== 'resolved') throw new Error('resolved expected');
    const materialized = materializedDefinitionOf(github);
    expect(materialized?.transport.kind === 'stdio' && materialized.transport.env[0]?.value.value).toBe(
      CANARY_PAT,
    );
    expect(materializedDefinitionOf({ ...github })).toBeUndefined();
  });

  it('reads the workspace alone from managed, project and plugin tiers with tenant and workspace variables', () => {
    const workspace = resolveDefinitions({
      sources: fixtureSources,
      variables,
      overlays: [],
      view: { kind: 'workspace' },
      fingerprintKey,
    });
    expect(workspace.entries.map((e) => e.name)).not.toContain('notes');
    expect(workspace.problems).toEqual([
      {
        source: { tier: 'user', origin: 'user:u1' },
        reason: 'outside_view',
        path: [],
        severity: 'informational',
      },
    ]);
    const github = entry(workspace, 'github');
    // The user's github no longer takes part: nothing is shadowed.
    expect(github.status === 'resolved' && github.shadowed).toEqual([]);
    // ${HOME} is a user variable only: the workspace view does not read it, and it has a default here.
    const postgres = entry(workspace, 'postgres');
    expect(
      postgres.status === 'resolved' &&
        postgres.projection.transport.kind === 'stdio' &&
        postgres.projection.transport.cwd,
    ).toBe('/home/agent/tools');
    expect(postgres.status === 'resolved' && postgres.perUser).toBe(false);
  });
});

// ---- rules, one by one -------------------------------------------------------------------------------------

describe('resolveDefinitions: variables', () => {
  const doc = servers({
    api: { command: 'run', args: ['--token', '${API_TOKEN}'], env: { MODE: '${MODE}' } },
  });

  it('reports an unset variable with its exact field; the entry is unusable for activation', () => {
    const result = resolve({
      sources: [readable('project', 'project:ws', doc)],
      variables: { tenant: { MODE: 'a' } },
    });
    const api = entry(result, 'api');
    expect(api).toMatchObject({
      status: 'unresolved',
      reason: 'unset_variable',
      unset: [{ path: ['args', 1], variable: 'API_TOKEN' }],
    });
    expect(
      api.status === 'unresolved' &&
        api.reason === 'unset_variable' &&
        api.projection.transport.kind === 'stdio' &&
        api.projection.transport.args,
    ).toEqual(['--token', '${API_TOKEN}']);
    expect('fingerprint' in api).toBe(false);
  });

  it('the workspace view never reads user variables', () => {
    const variables = { tenant: { MODE: 'a' }, user: { API_TOKEN: 't' } };
    const sources = [readable('project', 'project:ws', doc)];
    expect(entry(resolve({ sources, variables }), 'api').status).toBe('resolved');
    expect(
      entry(
        resolveDefinitions({ sources, variables, overlays: [], view: { kind: 'workspace' }, fingerprintKey }),
        'api',
      ),
    ).toMatchObject({
      status: 'unresolved',
      reason: 'unset_variable',
    });
  });

  it('user over workspace over tenant', () => {
    const sources = [
      readable('project', 'project:ws', servers({ s: { command: 'run', args: ['${MODE}'] } })),
    ];
    const argsOf = (r: ResolveResult) => {
      const e = entry(r, 's');
      return e.status === 'resolved' && e.projection.transport.kind === 'stdio'
        ? e.projection.transport.args
        : null;
    };
    expect(
      argsOf(
        resolve({
          sources,
          variables: { tenant: { MODE: 't' }, workspace: { MODE: 'w' }, user: { MODE: 'u' } },
        }),
      ),
    ).toEqual(['u']);
    expect(
      argsOf(resolve({ sources, variables: { tenant: { MODE: 't' }, workspace: { MODE: 'w' } } })),
    ).toEqual(['w']);
    expect(argsOf(resolve({ sources, variables: { tenant: { MODE: 't' } } }))).toEqual(['t']);
  });

  it('refuses values that materialize into something unusable', () => {
    const result = resolve({
      sources: [
        readable(
          'project',
          'project:ws',
          servers({
            badUrl: { type: 'http', url: '${TARGET}' },
            ftp: { type: 'http', url: 'ftp://files.example.com/' },
            hostSecret: { type: 'http', url: 'https://${TENANT_TOKEN}.example.com/mcp' },
            header: { type: 'http', url: 'https://x.example.com', headers: { 'X-Team': '${TEAM}' } },
          }),
        ),
      ],
      variables: { tenant: { TARGET: 'not a url', TENANT_TOKEN: 't', TEAM: 'a\nb' } },
    });
    expect(
      result.entries.map((e) => [
        e.name,
        e.status,
        e.status === 'unresolved' && e.reason === 'invalid_value' ? e.valueProblems : null,
      ]),
    ).toEqual([
      ['badUrl', 'unresolved', [{ reason: 'invalid_url', path: ['url'] }]],
      ['ftp', 'unresolved', [{ reason: 'url_not_http', path: ['url'] }]],
      ['header', 'unresolved', [{ reason: 'invalid_header_value', path: ['headers', 'X-Team'] }]],
      ['hostSecret', 'unresolved', [{ reason: 'secret_in_url_authority', path: ['url'] }]],
    ]);
  });
});

describe('resolveDefinitions: precedence', () => {
  const stdio = (command: string) => ({ command });

  it('a malformed winner shadows the name', () => {
    const result = resolve({
      sources: [
        readable('project', 'project:ws', servers({ a: { command: 'x', approved: true } })),
        readable('user', 'user:u1', servers({ a: stdio('fine') })),
      ],
    });
    expect(entry(result, 'a')).toEqual({
      name: 'a',
      source: { tier: 'project', origin: 'project:ws' },
      shadowed: [{ source: { tier: 'user', origin: 'user:u1' }, state: 'valid' }],
      status: 'unresolved',
      reason: 'malformed',
      problems: [{ reason: 'approval_claim', path: ['approved'] }],
    });
  });

  it('an unreadable managed origin blocks lower-tier names, not names another managed origin resolves', () => {
    for (const broken of [
      unreadable('managed', 'managed:broken'),
      readable('managed', 'managed:broken', '{"mcpServers": 1}'),
      readable('managed', 'managed:broken', '{'),
    ]) {
      const result = resolve({
        sources: [
          broken,
          readable('managed', 'managed:ok', servers({ kept: stdio('m') })),
          readable('project', 'project:ws', servers({ kept: stdio('p'), lower: stdio('p') })),
        ],
      });
      expect(entry(result, 'kept')).toMatchObject({
        status: 'resolved',
        source: { tier: 'managed', origin: 'managed:ok' },
      });
      expect(entry(result, 'lower')).toEqual({
        name: 'lower',
        source: { tier: 'project', origin: 'project:ws' },
        shadowed: [],
        status: 'blocked',
        reason: 'managed_source_unreadable',
        unreadableOrigins: ['managed:broken'],
      });
      expect(result.problems).toEqual([
        expect.objectContaining({
          source: { tier: 'managed', origin: 'managed:broken' },
          severity: 'blocking',
        }),
      ]);
    }
  });

  it('problems of other tiers are informational, beside the servers that still resolve', () => {
    const result = resolve({
      sources: [
        unreadable('project', 'project:ws'),
        readable(
          'plugin',
          'plugin:p',
          '{"mcpServers": {"ok": {"command": "x"}, "bad name": {"command": "x"}}, "trusted": true}',
        ),
      ],
    });
    expect(entry(result, 'ok').status).toBe('resolved');
    expect(result.problems).toEqual([
      {
        source: { tier: 'project', origin: 'project:ws' },
        reason: 'storage_unreadable',
        path: [],
        severity: 'informational',
      },
      {
        source: { tier: 'plugin', origin: 'plugin:p' },
        reason: 'approval_claim',
        path: ['trusted'],
        severity: 'informational',
      },
      {
        source: { tier: 'plugin', origin: 'plugin:p' },
        reason: 'invalid_server_name',
        path: ['mcpServers', '#1'],
        severity: 'informational',
      },
    ]);
  });

  it('two plugins defining one name fail closed', () => {
    const result = resolve({
      sources: [
        readable('plugin', 'plugin:b', servers({ fs: stdio('b') })),
        readable('plugin', 'plugin:a', servers({ fs: stdio('a') })),
      ],
    });
    expect(entry(result, 'fs')).toEqual({
      name: 'fs',
      source: { tier: 'plugin', origin: 'plugin:a' },
      shadowed: [],
      status: 'unresolved',
      reason: 'ambiguous_within_tier',
      contenders: [
        { tier: 'plugin', origin: 'plugin:a' },
        { tier: 'plugin', origin: 'plugin:b' },
      ],
    });
  });

  it('the same name from two sources has two security identities', () => {
    const doc = servers({ s: stdio('same') });
    const one = entry(resolve({ sources: [readable('project', 'project:ws', doc)] }), 's');
    const two = entry(resolve({ sources: [readable('user', 'user:u1', doc)] }), 's');
    if (one.status !== 'resolved' || two.status !== 'resolved') throw new Error('resolved expected');
    expect(one.fingerprint).toBe(two.fingerprint);
    expect(one.identity.key).not.toBe(two.identity.key);
  });

  it("a principal view reads only that user's own user and local sources", () => {
    const result = resolve({
      sources: [
        readable('user', 'user:u2', servers({ theirs: stdio('x') })),
        readable('local', 'local:ws:u2', servers({ theirs2: stdio('x') })),
        readable('local', 'local:ws:u1', servers({ mine: stdio('x') })),
      ],
    });
    expect(result.entries.map((e) => e.name)).toEqual(['mine']);
    expect(result.problems.map((p) => [p.source.origin, p.reason])).toEqual([
      ['local:ws:u2', 'outside_view'],
      ['user:u2', 'outside_view'],
    ]);
  });

  it('refuses a malformed source list as a bug', () => {
    expect(() => resolve({ sources: [readable('project', 'user:u1', servers({}))] })).toThrow(TypeError);
    expect(() =>
      resolve({
        sources: [
          readable('project', 'project:a', servers({})),
          readable('project', 'project:a', servers({})),
        ],
      }),
    ).toThrow(TypeError);
  });
});

describe('resolveDefinitions: disable overlays', () => {
  const sources = [
    readable('project', 'project:ws', servers({ a: { command: 'x' }, b: { command: 'y', bogus: 1 } })),
  ];

  it('keeps a disabled entry listed with its reason; clearing the overlay gives back an identical entry', () => {
    const plain = resolve({ sources });
    const disabled = resolve({
      sources,
      overlays: [{ serverName: 'a', scope: { kind: 'user', userId: 'u1' } }],
    });
    expect(entry(disabled, 'a')).toEqual({
      name: 'a',
      status: 'disabled',
      reason: 'disabled_by_user',
      entry: entry(plain, 'a'),
    });
    expect(entry(disabled, 'b')).toEqual(entry(plain, 'b'));
  });

  it("ignores another user's overlay and refuses an overlay naming an unknown server", () => {
    const result = resolve({
      sources,
      overlays: [
        { serverName: 'a', scope: { kind: 'user', userId: 'u2' } },
        { serverName: 'ghost', scope: { kind: 'workspace' } },
      ],
    });
    expect(entry(result, 'a').status).toBe('resolved');
    expect(result.overlayProblems).toEqual([
      { reason: 'unknown_server', serverName: 'ghost', scope: { kind: 'workspace' } },
    ]);
  });

  it('disables a non-resolved entry too, wrapping it unchanged', () => {
    const result = resolve({ sources, overlays: [{ serverName: 'b', scope: { kind: 'workspace' } }] });
    const b = entry(result, 'b');
    expect(b.status === 'disabled' && b.reason).toBe('disabled_by_workspace');
    expect(b.status === 'disabled' && b.entry.status).toBe('unresolved');
  });
});

describe('resolveDefinitions: printing', () => {
  it('masks credential-shaped literals nobody declared secret', () => {
    const result = resolve({
      sources: [
        readable(
          'project',
          'project:ws',
          servers({
            s: {
              type: 'http',
              url: 'https://x-access-token:gho_0123456789abcdefABCDEF@api.example.com/mcp?access_token=abc',
            },
          }),
        ),
      ],
    });
    const s = entry(result, 's');
    expect(
      s.status === 'resolved' && s.projection.transport.kind === 'http' && s.projection.transport.url,
    ).toBe(`https://${REDACTED}@api.example.com/mcp?access_token=${REDACTED}`);
    expect(JSON.stringify(result)).not.toContain('gho_0123456789abcdefABCDEF');
  });
});

// ---- precedence laws (properties) ---------------------------------------------------------------------------

const NAMES = ['alpha', 'beta', 'gamma'] as const;
type Kind = 'valid' | 'malformed' | 'sse';
type Slot =
  | { kind: 'absent' }
  | { kind: 'unreadable' | 'invalid' }
  | { kind: 'doc'; entries: Partial<Record<string, Kind>> };

const SLOTS: readonly { tier: Tier; origin: string }[] = [
  { tier: 'managed', origin: 'managed:m1' },
  { tier: 'managed', origin: 'managed:m2' },
  { tier: 'local', origin: 'local:ws:u1' },
  { tier: 'project', origin: 'project:ws' },
  { tier: 'user', origin: 'user:u1' },
  { tier: 'plugin', origin: 'plugin:p1' },
  { tier: 'plugin', origin: 'plugin:p2' },
];

const kindArb = fc.constantFrom<Kind>('valid', 'valid', 'malformed', 'sse');
const docArb = fc
  .dictionary(fc.constantFrom(...NAMES), kindArb)
  .map((entries): Slot => ({ kind: 'doc', entries }));
const slotArb: fc.Arbitrary<Slot> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Slot>({ kind: 'absent' }) },
  { weight: 1, arbitrary: fc.constantFrom<Slot>({ kind: 'unreadable' }, { kind: 'invalid' }) },
  { weight: 5, arbitrary: docArb },
);
const slotsArb = fc.array(slotArb, { minLength: SLOTS.length, maxLength: SLOTS.length });

function entryFor(kind: Kind, origin: string, name: string): unknown {
  switch (kind) {
    case 'valid':
      return { command: `run-${origin}-${name}` };
    case 'malformed':
      return { command: 'x', unexpected: true };
    case 'sse':
      return { type: 'sse', url: 'https://x.example.com/sse' };
  }
}

function sourcesOf(slots: readonly Slot[]): DefinitionSourceInput[] {
  const out: DefinitionSourceInput[] = [];
  slots.forEach((slot, i) => {
    const { tier, origin } = SLOTS[i] as { tier: Tier; origin: string };
    if (slot.kind === 'absent') return;
    if (slot.kind === 'doc') {
      const entries: Record<string, unknown> = {};
      for (const [name, kind] of Object.entries(slot.entries))
        entries[name] = entryFor(kind as Kind, origin, name);
      out.push(readable(tier, origin, servers(entries)));
    } else if (slot.kind === 'unreadable') out.push(unreadable(tier, origin));
    else out.push(readable(tier, origin, '{"mcpServers": ['));
  });
  return out;
}

/** The seed's order, written out here so the oracle shares nothing with the implementation. */
const ORDER: readonly Tier[] = ['managed', 'local', 'project', 'user', 'plugin'];
const tierRank = (tier: Tier): number => ORDER.indexOf(tier);

/** The rule, written independently of the implementation: what status each name must have. */
function expectedStatus(slots: readonly Slot[], name: string): string | null {
  const candidates: { tier: Tier; kind: Kind }[] = [];
  let managedUnreadable = false;
  slots.forEach((slot, i) => {
    const { tier } = SLOTS[i] as { tier: Tier };
    if ((slot.kind === 'unreadable' || slot.kind === 'invalid') && tier === 'managed')
      managedUnreadable = true;
    if (slot.kind === 'doc' && slot.entries[name])
      candidates.push({ tier, kind: slot.entries[name] as Kind });
  });
  if (candidates.length === 0) return null;
  const best = Math.min(...candidates.map((c) => tierRank(c.tier)));
  const top = candidates.filter((c) => tierRank(c.tier) === best);
  if ((top[0] as { tier: Tier }).tier !== 'managed' && managedUnreadable) return 'blocked';
  if (top.length > 1) return 'unresolved:ambiguous_within_tier';
  return { valid: 'resolved', malformed: 'unresolved:malformed', sse: 'rejected' }[
    (top[0] as { kind: Kind }).kind
  ];
}

function statusOf(e: ActiveEntry): string {
  return e.status === 'unresolved' ? `unresolved:${e.reason}` : e.status;
}

function withoutShadowed(e: EffectiveEntry): unknown {
  const { shadowed: _shadowed, ...rest } = e as ActiveEntry;
  return rest;
}

describe('precedence laws', () => {
  it('every name gets the status the rule gives (malformed winners shadow, unreadable managed blocks, whole entries)', () => {
    fc.assert(
      fc.property(slotsArb, (slots) => {
        const result = resolve({ sources: sourcesOf(slots) });
        for (const name of NAMES) {
          const found = result.entries.find((e) => e.name === name);
          expect({ name, status: found ? statusOf(found as ActiveEntry) : null }).toEqual({
            name,
            status: expectedStatus(slots, name),
          });
        }
      }),
    );
  });

  it('the result does not depend on the order of the sources', () => {
    fc.assert(
      fc.property(
        slotsArb.chain((slots) => {
          const sources = sourcesOf(slots);
          return fc.tuple(
            fc.constant(sources),
            fc.shuffledSubarray(sources, { minLength: sources.length, maxLength: sources.length }),
          );
        }),
        ([sources, shuffled]) => {
          expect(resolve({ sources: shuffled })).toEqual(resolve({ sources }));
        },
      ),
    );
  });

  it('adding a lower-tier source never changes a name a higher tier decides', () => {
    fc.assert(
      fc.property(
        slotsArb,
        fc.constantFrom<Tier>('project', 'user', 'plugin'),
        docArb,
        (slots, tier, extra) => {
          const sources = sourcesOf(slots);
          const before = resolve({ sources });
          const origin = tier === 'user' ? 'user:u1' : `${tier}:extra`;
          if (sources.some((s) => s.origin === origin) || extra.kind !== 'doc') return;
          const entries: Record<string, unknown> = {};
          for (const [name, kind] of Object.entries(extra.entries))
            entries[name] = entryFor(kind as Kind, origin, name);
          const after = resolve({ sources: [...sources, readable(tier, origin, servers(entries))] });
          for (const e of before.entries) {
            const decidedBy = (e as ActiveEntry).source.tier;
            if (tierRank(decidedBy) >= tierRank(tier)) continue;
            const later = after.entries.find((x) => x.name === e.name);
            expect(later && withoutShadowed(later)).toEqual(withoutShadowed(e));
          }
        },
      ),
    );
  });

  it('a resolved entry is its winning entry alone: nothing is merged in from the shadowed ones', () => {
    fc.assert(
      fc.property(slotsArb, (slots) => {
        const sources = sourcesOf(slots);
        const result = resolve({ sources });
        for (const e of result.entries) {
          if (e.status !== 'resolved') continue;
          const alone = resolve({
            sources: sources.filter((s) => s.tier === e.source.tier && s.origin === e.source.origin),
          });
          const solo = alone.entries.find((x) => x.name === e.name);
          expect(solo?.status === 'resolved' && solo.fingerprint).toBe(e.fingerprint);
          expect(solo?.status === 'resolved' && solo.identity).toEqual(e.identity);
        }
      }),
    );
  });
});
