import { mkdtemp, readFile, rm, stat, chmod } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestWorkspace, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
// Test data (real-world-shaped .mcp.json files), deliberately not on the lib's public surface.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports, @nx/enforce-module-boundaries
import { MANAGED_MCP_JSON, PROJECT_MCP_JSON } from '../../../libs/definitions/src/mcp-json.fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../api/src/commands/testing/surfaces-harness.js';
import { startLoopbackApi, runGatehouse, type LoopbackApi } from './test-support/api-on-loopback';
import { writeFile } from 'node:fs/promises';

// The user's gatehouse CLI against the real API on a loopback port (its REST surface, Postgres, Redis): login and
// the credentials file's modes, the reads as tables and --json, import of real-world-shaped .mcp.json files with
// and without --dry-run, and export to the three client formats, read back.

jest.setTimeout(120_000);

let api: LoopbackApi;
let home: string;
let workspaceId: string;
const tokens = { admin: '', member: '', agent: '' };

beforeAll(async () => {
  api = await startLoopbackApi();
  home = await mkdtemp(join(tmpdir(), 'gh-cli-'));
  const admin = await createMember(api.db, api.tenant, 'admin');
  const member = await createMember(api.db, api.tenant, 'member');
  workspaceId = (await createTestWorkspace(api.db, api.tenant.id, { trusted: true })).id;
  tokens.admin = (await mintTestToken(api.db, api.tenant, admin, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(api.db, api.tenant, member, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(api.db, api.tenant, admin, {
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: [workspaceId],
    })
  ).secret;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
  if (home !== undefined) await rm(home, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

/** The environment of a user whose config directory is this file's own. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { XDG_CONFIG_HOME: join(home, 'config'), HOME: home, ...extra };
}

function asAdmin(extra: Record<string, string> = {}) {
  return userEnv({ GATEHOUSE_API_URL: api.url, GATEHOUSE_TOKEN: tokens.admin, ...extra });
}

function onlyJson<T>(run: { out: string[] }): T {
  expect(run.out).toHaveLength(1);
  return JSON.parse(run.out[0] as string) as T;
}

describe('gatehouse login', () => {
  const credentials = () => join(home, 'config', 'gatehouse', 'credentials.json');

  it('checks a token from stdin against the API and stores it 0600 in a 0700 directory', async () => {
    const run = await runGatehouse(['login', '--api', api.url], {
      env: userEnv(),
      stdin: `${tokens.admin}\n`,
    });
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out[0]).toMatch(/^logged in to http:\/\/127\.0\.0\.1:\d+ as .+ \(tenant acme-/);
    expect(run.out.join('\n')).not.toContain(tokens.admin);
    expect((await stat(credentials())).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'config', 'gatehouse'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(credentials(), 'utf8'))).toEqual({
      v: 1,
      apiUrl: api.url,
      token: tokens.admin,
    });

    // The next command needs neither --api nor GATEHOUSE_TOKEN.
    const servers = await runGatehouse(['servers', '--workspace', workspaceId, '--json'], { env: userEnv() });
    expect(servers.code).toBe(0);
    expect(onlyJson<{ workspaceId: string }>(servers).workspaceId).toBe(workspaceId);
  });

  it('replaces the stored token at a new login, still 0600, and reads GATEHOUSE_TOKEN as well', async () => {
    const run = await runGatehouse(['login', '--api', api.url], {
      env: userEnv({ GATEHOUSE_TOKEN: tokens.member }),
    });
    expect(run.code).toBe(0);
    expect((await stat(credentials())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(credentials(), 'utf8')).token).toBe(tokens.member);
  });

  it('refuses a credentials file others can read, and stores nothing for a refused token', async () => {
    await chmod(credentials(), 0o644);
    const refused = await runGatehouse(['servers', '--workspace', workspaceId], { env: userEnv() });
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toContain('can be read by others (mode 644)');
    expect(refused.out).toEqual([]);
    await chmod(credentials(), 0o600);

    const before = await readFile(credentials(), 'utf8');
    const wrong = await runGatehouse(['login', '--api', api.url], {
      env: userEnv(),
      stdin: 'ghu_notarealtokennotarealtoken00\n',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.err[0]).toMatch(/^gatehouse: me\.get: unauthenticated: /);
    expect(wrong.err.join('\n')).not.toContain('ghu_notarealtoken');
    const agent = await runGatehouse(['login', '--api', api.url], { env: userEnv(), stdin: tokens.agent });
    expect(agent.code).toBe(1);
    expect(await readFile(credentials(), 'utf8')).toBe(before);
  });

  it('never takes a token from argv, never sends the stored one to another API, and needs --api', async () => {
    const inArgv = await runGatehouse(['login', '--api', api.url, `--token=${tokens.admin}`], {
      env: userEnv(),
    });
    expect(inArgv.code).toBe(2);
    expect(inArgv.err.join('\n')).not.toContain(tokens.admin);
    const elsewhere = await runGatehouse(
      ['servers', '--workspace', workspaceId, '--api', 'https://elsewhere.example.com'],
      {
        env: userEnv(),
      },
    );
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.err[0]).toContain('the stored token is for http://127.0.0.1');
    expect((await runGatehouse(['login'], { env: userEnv(), stdin: 'x' })).code).toBe(2);
    const cleartext = await runGatehouse(['login', '--api', 'http://gatehouse.example.com'], {
      env: userEnv(),
      stdin: 'x',
    });
    expect(cleartext).toMatchObject({ code: 2, err: [expect.stringContaining('must be https')] });
  });

  it('answers exit 3 when what answers is not the API: not JSON, not the shape, a problem-less error, too large', async () => {
    const answers: Record<string, (res: ServerResponse) => void> = {
      '/html/v1/me': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
      '/shape/v1/me': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":1}'),
      '/bare/v1/me': (res) => res.writeHead(502).end('bad gateway'),
      '/huge/v1/me': (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < 20 && res.write(chunk)) sent += 1;
          if (sent < 20) res.once('drain', () => ((sent += 1), more()));
          else res.end();
        };
        more();
      },
    };
    const impostor = createServer((req, res) =>
      (answers[req.url ?? ''] ?? ((r) => r.writeHead(404).end()))(res),
    );
    await new Promise<void>((done) => impostor.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    try {
      const expected: Record<string, string> = {
        html: 'the answer is not JSON',
        shape: 'the answer is not what this command returns',
        bare: 'HTTP 502 without a problem document',
        huge: 'the answer is too large',
      };
      for (const [path, message] of Object.entries(expected)) {
        const run = await runGatehouse(['login', '--api', `${base}/${path}`], {
          env: userEnv(),
          stdin: tokens.admin,
        });
        expect(run).toMatchObject({ code: 3, err: [expect.stringContaining(message)] });
      }
    } finally {
      impostor.closeAllConnections();
      await new Promise<void>((done) => impostor.close(() => done()));
    }
  });

  it('answers exit 3 when the API cannot be reached', async () => {
    const run = await runGatehouse(['servers', '--workspace', workspaceId], {
      env: userEnv({ GATEHOUSE_API_URL: 'http://127.0.0.1:9', GATEHOUSE_TOKEN: tokens.admin }),
    });
    expect(run).toMatchObject({
      code: 3,
      err: [expect.stringContaining('cannot reach the API at http://127.0.0.1:9')],
    });
  });
});

describe('gatehouse import, servers, approvals, export', () => {
  let projectFile: string;

  beforeAll(async () => {
    projectFile = join(home, '.mcp.json');
    await writeFile(projectFile, PROJECT_MCP_JSON);
    await writeFile(join(home, 'managed-mcp.json'), MANAGED_MCP_JSON);
  });

  it('--dry-run prints what the import would store and the requests it would open, and writes nothing', async () => {
    const run = await runGatehouse(
      ['import', projectFile, '--tier', 'project', '--workspace', workspaceId, '--dry-run'],
      {
        env: asAdmin(),
      },
    );
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe(`dry run: project:${workspaceId} would be created -> v1`);
    expect(run.out[1]).toMatch(/^NAME\s+CHANGE\s+STATE\s+EFFECTIVE \(workspace view\)\s+PROBLEMS$/);
    expect(run.out.find((line) => line.startsWith('sentry '))).toMatch(
      /^sentry\s+added\s+valid\s+takes effect\s+-$/,
    );
    for (const name of ['filesystem', 'github', 'sentry', 'internal-docs', 'postgres', 'legacy-events']) {
      expect(run.out.some((line) => new RegExp(`^${name}\\s+added\\s`).test(line))).toBe(true);
    }
    expect(run.out.find((line) => line.startsWith('legacy-events'))).toMatch(/rejected/);
    expect(run.out.some((line) => /^approval requests it would open: [1-9]/.test(line))).toBe(true);

    const json = await runGatehouse(
      ['import', projectFile, '--tier', 'project', '--workspace', workspaceId, '--dry-run', '--json'],
      { env: asAdmin() },
    );
    const { preview } = onlyJson<{
      preview: { nextVersion: number; requests: { serverName: string; outcome: string }[] };
    }>(json);
    expect(preview.nextVersion).toBe(1);
    expect(preview.requests.length).toBeGreaterThan(0);
    expect(preview.requests.every((request) => request.outcome === 'opened')).toBe(true);

    const servers = await runGatehouse(['servers', '--workspace', workspaceId, '--json'], { env: asAdmin() });
    expect(onlyJson<{ entries: unknown[] }>(servers).entries).toEqual([]);
  });

  it('imports the project file, then imports it again over the version it read', async () => {
    const run = await runGatehouse(['import', projectFile, '--tier', 'project', '--workspace', workspaceId], {
      env: asAdmin(),
    });
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe(`imported project:${workspaceId} v1 (6 entries)`);
    const again = await runGatehouse(
      ['import', projectFile, '--tier', 'project', '--workspace', workspaceId, '--json'],
      {
        env: asAdmin(),
      },
    );
    expect(again.code).toBe(0);
    expect(onlyJson<{ version: number }>(again).version).toBeGreaterThanOrEqual(1);

    const managed = await runGatehouse(
      [
        'import',
        join(home, 'managed-mcp.json'),
        '--tier',
        'managed',
        '--name',
        'org-policy',
        '--workspace',
        workspaceId,
      ],
      { env: asAdmin() },
    );
    expect(managed.code).toBe(0);
    expect(managed.out[0]).toBe('imported managed:org-policy v1 (1 entries)');
  });

  it('refuses what is not a readable document (exit 2) and what the API refuses (exit 1, with its code)', async () => {
    const duplicate = join(home, 'duplicate.json');
    await writeFile(duplicate, '{"mcpServers":{"a":{"command":"x"},"a":{"command":"hunter2-secret"}}}');
    const run = await runGatehouse(['import', duplicate, '--tier', 'project', '--workspace', workspaceId], {
      env: asAdmin(),
    });
    expect(run).toMatchObject({ code: 2, err: [expect.stringContaining('duplicate_key')] });
    expect(run.err.join('\n')).not.toContain('hunter2');
    const asMember = await runGatehouse(
      [
        'import',
        join(home, 'managed-mcp.json'),
        '--tier',
        'managed',
        '--name',
        'org-policy',
        '--workspace',
        workspaceId,
      ],
      { env: asAdmin({ GATEHOUSE_TOKEN: tokens.member }) },
    );
    expect(asMember.code).toBe(1);
    expect(asMember.err[0]).toMatch(
      /^gatehouse: definitions\.sources\.list: forbidden|^gatehouse: definitions\.sources\.import: forbidden/,
    );
    expect(
      (await runGatehouse(['import', '--tier', 'project', '--workspace', workspaceId], { env: asAdmin() }))
        .code,
    ).toBe(2);
  });

  it('servers: a table and --json of the effective view', async () => {
    const table = await runGatehouse(['servers', '--workspace', workspaceId], { env: asAdmin() });
    expect(table.code).toBe(0);
    expect(table.out[0]).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+ACTIVATION\s+SOURCE$/);
    expect(table.out.find((line) => line.startsWith('sentry '))).toMatch(
      /^sentry\s+http\s+\w+\s+pending\s+project:/,
    );
    expect(table.out.find((line) => line.startsWith('company-search '))).toMatch(/managed:org-policy$/);
    const json = onlyJson<{ entries: { name: string }[] }>(
      await runGatehouse(['servers', '--workspace', workspaceId, '--json'], { env: asAdmin() }),
    );
    expect(json.entries.map((entry) => entry.name).sort()).toEqual(
      [
        'company-search',
        'filesystem',
        'github',
        'internal-docs',
        'legacy-events',
        'postgres',
        'sentry',
      ].sort(),
    );
  });

  it('approvals: the open requests the import opened, as a table and --json', async () => {
    const json = onlyJson<{ items: { identity: { serverName: string }; status: string }[] }>(
      await runGatehouse(['approvals', '--workspace', workspaceId, '--json'], { env: asAdmin() }),
    );
    expect(json.items.length).toBeGreaterThan(0);
    expect(json.items.every((item) => item.status === 'open')).toBe(true);
    const table = await runGatehouse(['approvals', '--workspace', workspaceId], { env: asAdmin() });
    expect(table.out[0]).toMatch(/^ID\s+SERVER\s+STATUS\s+TRIGGER\s+FOR\s+OPENED$/);
    expect(table.out).toHaveLength(json.items.length + 1);
    const names = json.items.map((item) => item.identity.serverName);
    expect(table.out.slice(1).map((line) => line.split(/\s+/)[1])).toEqual(names);
  });

  it('catalog: nothing approved yet, so no server; a table header and --json', async () => {
    const table = await runGatehouse(['catalog', '--workspace', workspaceId], { env: asAdmin() });
    expect(table).toMatchObject({ code: 0, out: [expect.stringMatching(/^SERVER\s+STATE\s+TOOLS/)] });
    const json = onlyJson<{ workspaceId: string; servers: unknown[] }>(
      await runGatehouse(['catalog', '--workspace', workspaceId, '--json'], { env: asAdmin() }),
    );
    expect(json).toMatchObject({ workspaceId, servers: [] });
  });

  it('export round-trips the names and transports and points every server at the gateway, never the token', async () => {
    const gateway = 'https://gateway.example.com';
    const run = await runGatehouse(
      ['export', '--workspace', workspaceId, '--format', 'claude', '--gateway', gateway],
      {
        env: asAdmin(),
      },
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain('gatehouse: left out legacy-events (rejected: unsupported_transport)');
    const text = run.out.join('\n');
    expect(text).not.toContain(tokens.admin);
    const exported = JSON.parse(text) as { mcpServers: Record<string, Record<string, unknown>> };

    // What was imported, read back with the same reader the API uses: names and transports.
    const imported = JSON.parse(PROJECT_MCP_JSON + '') as {
      mcpServers: Record<string, { type?: string; command?: string }>;
    };
    const transportOfImported = (entry: { type?: string; command?: string }) =>
      entry.command !== undefined || entry.type === 'stdio' ? 'stdio' : entry.type === 'sse' ? 'sse' : 'http';
    const expected = Object.fromEntries(
      Object.entries({ ...imported.mcpServers, 'company-search': { type: 'http' } })
        .map(([name, entry]) => [name, transportOfImported(entry)] as const)
        .filter(([, transport]) => transport !== 'sse'),
    );
    expect(
      Object.fromEntries(Object.entries(exported.mcpServers).map(([name, entry]) => [name, entry['type']])),
    ).toEqual(expected);
    for (const [name, entry] of Object.entries(exported.mcpServers)) {
      const url = `${gateway}/mcp/w/${workspaceId}/s/${name}`;
      if (entry['type'] === 'http') {
        expect(entry).toEqual({ type: 'http', url, headers: { Authorization: 'Bearer ${GATEHOUSE_TOKEN}' } });
      } else {
        expect(entry).toEqual({
          type: 'stdio',
          command: 'gatehouse',
          args: ['connect', url],
          env: { GATEHOUSE_TOKEN: '${GATEHOUSE_TOKEN}' },
        });
      }
    }

    // The export is itself a .mcp.json: imported as a user source it reads back with the same names and transports.
    const exportFile = join(home, 'exported.mcp.json');
    await writeFile(exportFile, text);
    const { preview: dryRun, effective } = onlyJson<{
      preview: { entries: { name: string; state: string }[] };
      effective: { name: string; outcome: string; other: string | null }[];
    }>(
      await runGatehouse(
        ['import', exportFile, '--tier', 'user', '--workspace', workspaceId, '--dry-run', '--json'],
        {
          env: asAdmin(),
        },
      ),
    );
    expect(dryRun.entries.map((entry) => entry.name).sort()).toEqual(Object.keys(expected).sort());
    expect(dryRun.entries.every((entry) => entry.state === 'valid')).toBe(true);
    // A user source loses every name to the project and managed sources that define it (decision 0015).
    expect(effective.find((entry) => entry.name === 'sentry')).toEqual({
      name: 'sentry',
      outcome: 'shadowed',
      other: `project:${workspaceId}`,
    });
    expect(effective.find((entry) => entry.name === 'company-search')).toMatchObject({
      outcome: 'shadowed',
      other: 'managed:org-policy',
    });
  });

  it('export for VS Code and Cursor spells the env reference their way, and writes a file only once', async () => {
    const vscode = JSON.parse(
      (
        await runGatehouse(
          ['export', '--workspace', workspaceId, '--format', 'vscode', '--gateway', 'https://gw.example.com'],
          {
            env: asAdmin(),
          },
        )
      ).out.join('\n'),
    ) as { servers: Record<string, Record<string, unknown>> };
    expect(vscode.servers['sentry']).toEqual({
      type: 'http',
      url: `https://gw.example.com/mcp/w/${workspaceId}/s/sentry`,
      headers: { Authorization: 'Bearer ${env:GATEHOUSE_TOKEN}' },
    });
    const out = join(home, 'cursor-mcp.json');
    const args = [
      'export',
      '--workspace',
      workspaceId,
      '--format',
      'cursor',
      '--gateway',
      'https://gw.example.com',
      '--out',
      out,
    ];
    expect((await runGatehouse(args, { env: asAdmin() })).code).toBe(0);
    const cursor = JSON.parse(await readFile(out, 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    expect(cursor.mcpServers['github']).toEqual({
      command: 'gatehouse',
      args: ['connect', `https://gw.example.com/mcp/w/${workspaceId}/s/github`],
      env: { GATEHOUSE_TOKEN: '${env:GATEHOUSE_TOKEN}' },
    });
    const again = await runGatehouse(args, { env: asAdmin() });
    expect(again.code).toBe(1);
    expect(again.err.at(-1)).toBe(`gatehouse: ${out} exists (pass --force to replace it)`);
    expect(
      (
        await runGatehouse(
          ['export', '--workspace', workspaceId, '--format', 'zed', '--gateway', 'https://g.example.com'],
          { env: asAdmin() },
        )
      ).code,
    ).toBe(2);
  });
});

describe('env keys are never hidden in what the CLI shows', () => {
  it('servers --json and approvals --json name npm_config_node_options and a token-shaped key, never a value', async () => {
    const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
    const canary = 'CLI_KEYS_SHOWN_CANARY';
    const keysWorkspace = (await createTestWorkspace(api.db, api.tenant.id, { trusted: true })).id;
    const file = join(home, 'keys.mcp.json');
    const env = { npm_config_node_options: `--import=data:text/javascript,${canary}`, [tokenKey]: canary };
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { runner: { command: 'npx', args: ['-y', 'r'], env } } }),
    );
    const imported = await runGatehouse(['import', file, '--tier', 'project', '--workspace', keysWorkspace], {
      env: asAdmin(),
    });
    expect(imported.code).toBe(0);
    const keys = ['npm_config_node_options', tokenKey];

    const servers = await runGatehouse(['servers', '--workspace', keysWorkspace, '--json'], {
      env: asAdmin(),
    });
    const entry = onlyJson<{ entries: { name: string; projection: unknown }[] }>(servers).entries.find(
      (item) => item.name === 'runner',
    );
    expect(entry?.projection).toMatchObject({ transport: { env: { state: 'redacted', keys } } });

    const approvals = await runGatehouse(['approvals', '--workspace', keysWorkspace, '--json'], {
      env: asAdmin(),
    });
    const request = onlyJson<{ items: { identity: { serverName: string }; projection: unknown }[] }>(
      approvals,
    ).items.find((item) => item.identity.serverName === 'runner');
    expect(request?.projection).toMatchObject({ transport: { env: { state: 'redacted', keys } } });
    expect([...servers.out, ...approvals.out].join('\n')).not.toContain(canary);
  });
});

describe('--help everywhere', () => {
  it.each(['login', 'servers', 'approvals', 'catalog', 'import', 'export', 'connect'])(
    'gatehouse %s --help',
    async (name) => {
      const run = await runGatehouse([name, '--help'], { env: {} });
      expect(run).toMatchObject({ code: 0, err: [] });
      expect(run.out[0]).toMatch(new RegExp(`^usage: gatehouse ${name}`));
    },
  );

  it('gatehouse --help lists the commands and the exit codes; an unknown command is exit 2', async () => {
    const run = await runGatehouse(['--help']);
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).toContain('exit codes: 0 done, 1 refused');
    expect((await runGatehouse(['frobnicate'])).code).toBe(2);
    expect((await runGatehouse([])).code).toBe(2);
  });
});
