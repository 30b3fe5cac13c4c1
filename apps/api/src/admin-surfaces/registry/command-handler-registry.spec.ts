import { COMMANDS, defineCommand, listWorkspaces, type CommandDefinition } from '@gatehouse/commands';
import { createDatabase } from '@gatehouse/db';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { createCommandHandlerContext } from '../../command-handlers-context';
import { DEFAULT_WORKER_POOLS } from '../../auth/pool-config';
import { CommandBindingError } from './command-binding-problems';
import { HandlesCommand } from '../../commands/registry/handles-command-decorator';
import { testCommandInfrastructure } from '../../commands/testing/command-infrastructure.harness';

// Boot's binding of the registry to the discovered use cases. The pool connects lazily: building the Nest
// context and its use cases does no I/O.

const throwaway = (name: string): CommandDefinition =>
  defineCommand({
    name,
    summary: 'A throwaway command of this spec.',
    scope: 'tenant:read',
    kind: 'query',
    input: z.object({}).strict(),
    output: z.object({ ok: z.literal(true) }),
    http: { method: 'GET', path: `/v1/test/${name}` },
    graphql: { field: name.replace(/\W/g, '_') },
  });

const unlisted = throwaway('test.unlisted');

@HandlesCommand(listWorkspaces)
class SecondListWorkspacesUseCase {
  async execute() {
    return { items: [], nextCursor: null };
  }
}

@HandlesCommand(unlisted)
class UnlistedUseCase {
  async execute() {
    return { ok: true as const };
  }
}

@Module({ providers: [SecondListWorkspacesUseCase] })
class DuplicateHandlerModule {}

@Module({ providers: [UnlistedUseCase] })
class OrphanHandlerModule {}

describe('command handler discovery', () => {
  const database = createDatabase({ url: 'postgresql://nobody@127.0.0.1:9/never' });
  // Lazy: nothing here dials Redis or the database.
  const infrastructure = testCommandInfrastructure({ databaseUrl: 'postgresql://nobody@127.0.0.1:9/never' });
  afterAll(async () => {
    await infrastructure.close();
    await database.close();
  });
  const build = (extra: Partial<Parameters<typeof createCommandHandlerContext>[0]> = {}) =>
    createCommandHandlerContext({ database, workerPools: DEFAULT_WORKER_POOLS, infrastructure, ...extra });

  it('finds exactly one use case for every command in the registry', async () => {
    const context = await build();
    try {
      expect(Object.keys(context.handlers).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
      for (const command of COMMANDS) expect(typeof context.handlers[command.name]?.execute).toBe('function');
    } finally {
      await context.close();
    }
  });

  it('names every command without a handler', async () => {
    const commands = [...COMMANDS, throwaway('test.first'), throwaway('test.second')];
    await expect(build({ commands })).rejects.toThrow('commands without a handler: test.first, test.second');
  });

  it('refuses a command with two handlers, naming both', async () => {
    const refusal = build({ imports: [DuplicateHandlerModule] });
    await expect(refusal).rejects.toBeInstanceOf(CommandBindingError);
    await expect(refusal).rejects.toThrow(
      'command workspaces.list has 2 handlers: ListWorkspacesUseCase, SecondListWorkspacesUseCase',
    );
  });

  it('refuses a handler whose command is not in the registry', async () => {
    await expect(build({ imports: [OrphanHandlerModule] })).rejects.toThrow(
      'handler UnlistedUseCase is bound to test.unlisted, which is not in the registry',
    );
  });

  it('binds a throwaway command once it is listed', async () => {
    const context = await build({ imports: [OrphanHandlerModule], commands: [...COMMANDS, unlisted] });
    try {
      expect(context.handlers['test.unlisted']).toBeInstanceOf(UnlistedUseCase);
    } finally {
      await context.close();
    }
  });
});
