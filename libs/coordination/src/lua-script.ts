import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// A server-side script run by EVALSHA, falling back to EVAL when the server does not know it yet (first use,
// after a restart or SCRIPT FLUSH). EVAL also loads it, so the next call takes the short path again.
// Every key a script touches is passed in `keys` (never built inside Lua), so ioredis' keyPrefix applies and
// the script stays valid on a cluster when the keys share a hash tag.
export class LuaScript {
  private readonly sha1: string;

  constructor(private readonly source: string) {
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  async run(
    connection: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await connection.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScriptError(error)) throw error;
      return connection.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
