import { z } from 'zod';

// The params of prompts/get and completion/complete as the protocol shapes them, except that an argument's value
// may be anything: the SDK's own schemas demand strings, and what fails them is answered as an internal error
// (-32603, with the schema's words), not as the caller's bad input. The handlers judge the values themselves
// (argument-bounds, then that each is a string) and refuse with -32602 naming the bound or the argument. Members
// the protocol does not name (`_meta` among them) are kept, as the SDK's own schemas keep them.

export const LaxGetPromptParamsSchema = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export const LaxCompleteParamsSchema = z.looseObject({
  ref: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }),
    z.looseObject({ type: z.literal('ref/resource'), uri: z.string() }),
  ]),
  argument: z.looseObject({ name: z.string(), value: z.unknown() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.unknown()).optional() }).optional(),
});
