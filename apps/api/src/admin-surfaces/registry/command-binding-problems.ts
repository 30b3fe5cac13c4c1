/** Why the discovered handlers do not match the registry one to one. */
export interface CommandBindingFaults {
  /** Commands in the registry that no provider handles. */
  readonly withoutHandler: readonly string[];
  /** Commands handled by more than one provider, with the providers' class names. */
  readonly withSeveralHandlers: readonly { readonly command: string; readonly handlers: readonly string[] }[];
  /** Providers bound to a command that is not in the registry (a stale or unlisted declaration). */
  readonly handlersWithoutCommand: readonly { readonly handler: string; readonly command: string }[];
}

/** Boot stops here: a wiring bug of ours, named in one line. */
export class CommandBindingError extends Error {
  constructor(readonly faults: CommandBindingFaults) {
    super(describe(faults));
    this.name = 'CommandBindingError';
  }
}

function describe(faults: CommandBindingFaults): string {
  const parts: string[] = [];
  if (faults.withoutHandler.length > 0)
    parts.push(`commands without a handler: ${faults.withoutHandler.join(', ')}`);
  for (const several of faults.withSeveralHandlers)
    parts.push(
      `command ${several.command} has ${several.handlers.length} handlers: ${several.handlers.join(', ')}`,
    );
  for (const orphan of faults.handlersWithoutCommand)
    parts.push(`handler ${orphan.handler} is bound to ${orphan.command}, which is not in the registry`);
  return parts.join('; ');
}
