import { COMMANDS } from '@gatehouse/commands';
import { createDatabase } from '@gatehouse/db';
import { DEFAULT_WORKER_POOLS } from '../auth/pool-config';
import { createCommandHandlers } from './command-handlers';
import { handlersFor } from './rest/register-command-routes';

describe('command handler map', () => {
  // The pool connects lazily: building the use cases does no I/O.
  const database = createDatabase({ url: 'postgresql://nobody@127.0.0.1:9/never' });
  afterAll(() => database.close());

  it('has exactly one use case for every command in the registry', () => {
    const handlers = createCommandHandlers({ database, workerPools: DEFAULT_WORKER_POOLS });
    expect(Object.keys(handlers).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const command of COMMANDS) expect(typeof handlers[command.name]?.execute).toBe('function');
    expect(() => handlersFor(COMMANDS, handlers)).not.toThrow();
  });

  it('names every command without a handler', () => {
    const handlers = { ...createCommandHandlers({ database, workerPools: DEFAULT_WORKER_POOLS }) };
    delete handlers['tokens.create'];
    delete handlers['audit.verify'];
    expect(() => handlersFor(COMMANDS, handlers)).toThrow(
      'commands without a handler: tokens.create, audit.verify',
    );
  });
});
