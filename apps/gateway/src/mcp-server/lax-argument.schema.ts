import {
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// prompts/get and completion/complete as the SDK's schemas read them, except that an argument's value may be
// anything: the SDK's own schemas demand strings, and what fails them is answered as an internal error (-32603,
// with zod's words), not as the caller's bad input. The handlers judge the values themselves (argument-bounds,
// then that each is a string) and refuse with -32602 naming the bound or the argument.

export const LaxGetPromptRequestSchema = GetPromptRequestSchema.extend({
  params: GetPromptRequestParamsSchema.extend({
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const LaxCompleteRequestSchema = CompleteRequestSchema.extend({
  params: CompleteRequestParamsSchema.extend({
    argument: z.object({ name: z.string(), value: z.unknown() }),
    context: z.object({ arguments: z.record(z.string(), z.unknown()).optional() }).optional(),
  }),
});
