import type { CommandDefinition } from '@gatehouse/commands';
import { Injectable, applyDecorators } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/** The discoverable mark: the command declaration a provider executes. */
export const COMMAND_BINDING = DiscoveryService.createDecorator<CommandDefinition>();

/**
 * Makes a use case an injectable provider bound to its command declaration. The API discovers every provider
 * so marked at boot (CommandHandlerRegistry); nothing lists the use cases by hand.
 *
 *   @HandlesCommand(listWorkspaces)
 *   export class ListWorkspacesUseCase implements UseCaseFor<typeof listWorkspaces> { ... }
 */
export function HandlesCommand(command: CommandDefinition): ClassDecorator {
  return applyDecorators(Injectable(), COMMAND_BINDING(command));
}
