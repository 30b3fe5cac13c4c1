import type { CommandDefinition } from '@gatehouse/commands';
import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { CommandHandler, CommandHandlers } from '../../commands/command-handler';
import { CommandBindingError } from './command-binding-problems';
import { COMMAND_BINDING } from '../../commands/registry/handles-command-decorator';

interface DiscoveredHandler {
  readonly command: CommandDefinition;
  readonly className: string;
  readonly handler: CommandHandler;
}

/**
 * The command registry's use cases, found among the application's providers by their `@HandlesCommand` mark.
 * `handlersFor(commands)` binds them one to one: every command exactly one handler, every handler a command in
 * the list, or CommandBindingError names each fault (the surfaces call it before the app listens, so a broken
 * binding stops the boot, never a request).
 */
@Injectable()
export class CommandHandlerRegistry {
  constructor(private readonly discovery: DiscoveryService) {}

  handlersFor(commands: readonly CommandDefinition[]): CommandHandlers {
    const byName = new Map<string, DiscoveredHandler[]>();
    for (const found of this.discover()) {
      const list = byName.get(found.command.name) ?? [];
      list.push(found);
      byName.set(found.command.name, list);
    }

    const listed = new Set(commands.map((command) => command.name));
    const withoutHandler: string[] = [];
    const withSeveralHandlers: { command: string; handlers: string[] }[] = [];
    const handlersWithoutCommand: { handler: string; command: string }[] = [];
    const handlers: Record<string, CommandHandler> = {};

    for (const command of commands) {
      const found = byName.get(command.name) ?? [];
      const only = found[0];
      if (only === undefined) withoutHandler.push(command.name);
      else if (found.length > 1)
        withSeveralHandlers.push({ command: command.name, handlers: found.map((f) => f.className).sort() });
      else if (only.command !== command)
        handlersWithoutCommand.push({
          handler: only.className,
          command: `${command.name} (another declaration)`,
        });
      else handlers[command.name] = only.handler;
    }
    for (const [name, found] of byName) {
      if (listed.has(name)) continue;
      for (const orphan of found) handlersWithoutCommand.push({ handler: orphan.className, command: name });
    }

    if (withoutHandler.length + withSeveralHandlers.length + handlersWithoutCommand.length > 0)
      throw new CommandBindingError({ withoutHandler, withSeveralHandlers, handlersWithoutCommand });
    return Object.freeze(handlers);
  }

  private discover(): DiscoveredHandler[] {
    const found: DiscoveredHandler[] = [];
    for (const wrapper of this.discovery.getProviders({ metadataKey: COMMAND_BINDING.KEY })) {
      const command = this.discovery.getMetadataByDecorator(COMMAND_BINDING, wrapper);
      const instance: unknown = wrapper.instance;
      if (command === undefined || !isHandler(instance)) continue;
      found.push({ command, className: wrapper.metatype?.name ?? String(wrapper.token), handler: instance });
    }
    return found;
  }
}

function isHandler(value: unknown): value is CommandHandler {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { execute?: unknown }).execute === 'function'
  );
}
