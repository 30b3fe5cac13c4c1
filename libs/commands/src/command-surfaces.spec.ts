import { isProblemCode, PROBLEM_CODES } from '@gatehouse/contracts';
import { z } from 'zod';
import {
  CommandDeclarationError,
  defineCommand,
  mcpWithheldReason,
  problemsOf,
  SURFACE_PROBLEMS,
  successStatusOf,
  surfacesOf,
  type CommandDefinition,
} from './command';
import { MCP_READ, mcpWrite } from './mcp-offers';
import { COMMANDS } from './registry';

// What a declaration tells the surfaces (docs/architecture/admin-surfaces.md): where it is served, how MCP
// may offer it, its success status, ETag and long-poll, and the stable list of problem codes it may answer.

/** Never offered over admin MCP (decision 0112): deciding, revoking, HostPolicy, tokens, invitations, secrets. */
const NEVER_OFFERED = [
  'approvals.requests.decide',
  'approvals.revoke',
  'hostPolicy.get',
  'hostPolicy.put',
  'invitations.accept',
  'invitations.create',
  'invitations.list',
  'invitations.revoke',
  'tokens.create',
  'tokens.list',
  'tokens.revoke',
];

const base = {
  summary: 'A throwaway declaration of this spec.',
  scope: 'tenant:read' as const,
  input: z.strictObject({}),
  output: z.object({ ok: z.boolean() }),
  graphql: { field: 'specThrowaway' },
};

describe('surfaces in the declaration', () => {
  it('never offers over MCP the commands an agent must not reach, whatever is declared', () => {
    const withheld = COMMANDS.filter((c) => mcpWithheldReason(c) !== null).map((c) => c.name);
    expect(withheld.sort()).toEqual(expect.arrayContaining(NEVER_OFFERED));
    for (const name of NEVER_OFFERED) {
      const command = COMMANDS.find((c) => c.name === name) as CommandDefinition;
      expect(command).toBeDefined();
      expect(surfacesOf(command).mcp).toBeNull();
      expect(command.surfaces?.mcp).toBeUndefined();
    }
    for (const command of COMMANDS.filter((c) => c.revealsSecret || c.scope === 'approvals:decide')) {
      expect(mcpWithheldReason(command)).not.toBeNull();
      expect(surfacesOf(command).mcp).toBeNull();
    }
  });

  it('serves the revocation catch-up over REST and GraphQL to holders and admins, never over MCP', () => {
    const command = COMMANDS.find((c) => c.name === 'revocations.list') as CommandDefinition;
    expect(surfacesOf(command)).toEqual({ rest: true, graphql: true, mcp: null });
    expect(command.callers).toEqual(['session', 'user', 'worker', 'gateway']);
    expect(problemsOf(command)).toContain('bad_cursor');
  });

  it('refuses a declaration that offers such a command over MCP', () => {
    const offered = (extra: Partial<CommandDefinition>) => () =>
      defineCommand({
        ...base,
        name: 'test.offered',
        kind: 'mutation',
        http: { method: 'POST', path: '/v1/test/offered' },
        surfaces: { mcp: mcpWrite({ destructive: false, idempotent: false }) },
        ...extra,
      });
    expect(offered({ revealsSecret: true })).toThrow(CommandDeclarationError);
    expect(offered({ scope: 'approvals:decide' })).toThrow('(decides)');
    expect(offered({ name: 'tokens.mint' })).toThrow('(never_over_mcp)');
    expect(offered({ name: 'invitations.resend' })).toThrow('(never_over_mcp)');
    expect(offered({ name: 'hostPolicy.patch' })).toThrow('(never_over_mcp)');
    expect(offered({})).not.toThrow();
  });

  it('gives every offered tool hints that match what it does', () => {
    const offered = COMMANDS.filter((c) => surfacesOf(c).mcp !== null);
    expect(offered.length).toBeGreaterThan(10);
    for (const command of offered) {
      const hints = surfacesOf(command).mcp;
      expect(hints?.readOnly).toBe(command.kind === 'query');
      if (command.kind === 'query') expect(hints).toEqual(MCP_READ);
    }
    expect(() =>
      defineCommand({
        ...base,
        name: 'test.lyingRead',
        kind: 'mutation',
        http: { method: 'POST', path: '/v1/test/lying' },
        surfaces: { mcp: MCP_READ },
      }),
    ).toThrow('readOnly hint contradicts its kind');
  });

  it('serves every command over REST and GraphQL unless the declaration says otherwise', () => {
    for (const command of COMMANDS) expect(surfacesOf(command)).toMatchObject({ rest: true, graphql: true });
  });
});

describe('success status, ETag and long-poll in the declaration', () => {
  it('reads the success status from one place', () => {
    const created = COMMANDS.find((c) => c.name === 'workspaces.create') as CommandDefinition;
    expect(successStatusOf(created)).toBe(201);
    expect(successStatusOf(COMMANDS.find((c) => c.name === 'workspaces.get') as CommandDefinition)).toBe(200);
  });

  it('declares ETag and long-poll only on GET queries, long-poll bounded and clash-free', () => {
    const read = (extra: Partial<CommandDefinition>) => () =>
      defineCommand({
        ...base,
        name: 'test.read',
        kind: 'query',
        http: { method: 'GET', path: '/v1/test/read' },
        read: { etag: true, longPoll: { maxWaitSeconds: 30 } },
        ...extra,
      });
    expect(read({})).not.toThrow();
    expect(read({ kind: 'mutation', http: { method: 'POST', path: '/v1/test/read' } })).toThrow('GET queries');
    expect(read({ read: { etag: true, longPoll: { maxWaitSeconds: 61 } } })).toThrow('1-60 whole seconds');
    expect(read({ read: { etag: true, longPoll: { maxWaitSeconds: 0.5 } } })).toThrow('1-60 whole seconds');
    expect(read({ input: z.strictObject({ wait: z.string() }) })).toThrow('clash with ?wait=');
    for (const command of COMMANDS.filter((c) => c.read !== undefined)) {
      expect(command.http.method).toBe('GET');
      expect(command.kind).toBe('query');
    }
  });
});

describe('problem codes in the declaration', () => {
  it('lists only codes of the one list, for every command', () => {
    for (const code of SURFACE_PROBLEMS) expect(isProblemCode(code)).toBe(true);
    for (const command of COMMANDS) {
      for (const code of problemsOf(command)) expect(PROBLEM_CODES).toContain(code);
    }
    // Every admin command listed here states its own list (new commands should too; the harness holds a
    // stated list to what the use case answers).
    for (const name of ['workspaces.get', 'me.get', 'hostPolicy.put', 'approvals.requests.decide', 'tokens.create'])
      expect(COMMANDS.find((c) => c.name === name)?.problems).toBeDefined();
  });

  it('gives each command a stable, sorted list: the surfaces, conflict for writes, its own', () => {
    const decide = COMMANDS.find((c) => c.name === 'approvals.requests.decide') as CommandDefinition;
    const codes = problemsOf(decide);
    expect([...codes]).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['conflict', 'changed_since_review', 'four_eyes_author']));
    expect(codes).toEqual(expect.arrayContaining([...SURFACE_PROBLEMS]));
    expect(problemsOf(COMMANDS.find((c) => c.name === 'me.get') as CommandDefinition)).not.toContain('conflict');
  });
});
