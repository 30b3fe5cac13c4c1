import { z } from 'zod';
import { childUserField } from './child-user-field.js';
import { integerField } from './config-fields.js';

/**
 * The variables of an app that starts stdio children and header helpers (the worker and the gateway): where a
 * bare command name is looked up, which account a child runs as, how long closing one waits. One shape, spread into
 * each app's schema, so the two cannot drift.
 */
export function childProcessConfigShape() {
  return {
    CHILD_PATH: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^\/[^:]*(:\/[^:]*)*$/, 'must be absolute directories separated by colons')
      .default('/usr/local/bin:/usr/bin:/bin')
      .describe('PATH given to stdio children and header helpers (never this process’s own environment).'),
    CHILD_USER: childUserField(),
    CHILD_CLOSE_GRACE_MS: integerField({ min: 0, max: 60_000 })
      .default(2_000)
      .describe(
        'How long closing a stdio child waits after ending its stdin, and again after TERM to its group.',
      ),
  };
}
