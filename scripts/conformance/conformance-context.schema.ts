// MCP_CONFORMANCE_CONTEXT: the scenario's extra data (a pre-registered client's id and secret). Validated like
// any outside input; a value we cannot read is treated as no context, and the scenario's checks then decide.
import { z } from 'zod';

const contextSchema = z.object({
  client_id: z.string().min(1).max(2_048).optional(),
  client_secret: z.string().min(1).max(4_096).optional(),
});

export type ConformanceContext = z.infer<typeof contextSchema>;

export function conformanceContextOf(text: string | undefined): ConformanceContext {
  if (text === undefined || text === '') return {};
  try {
    const parsed = contextSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
