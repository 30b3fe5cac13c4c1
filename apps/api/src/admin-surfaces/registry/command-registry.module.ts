import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CommandHandlerRegistry } from './command-handler-registry';

/** Discovery of the `@HandlesCommand` providers of every module in the application. */
@Module({
  imports: [DiscoveryModule],
  providers: [CommandHandlerRegistry],
  exports: [CommandHandlerRegistry],
})
export class CommandRegistryModule {}
