import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger } from '@gatehouse/platform';
import { AuditCheckpointLogger } from '../audit/audit-checkpoint-logger';
import type { AuditEventInput } from '../audit/audit-event';
import { PasswordHasher } from '../auth/password-hasher';
import { requireDatabaseUrl, type CliConfig } from './cli-config';
import type { CliIo } from './cli-io';

/** Every CLI mutation is audited as the operator (tenant-scoped ones, in that tenant's chain). */
export const OPERATOR_ACTOR: AuditEventInput['actor'] = Object.freeze({
  type: 'operator',
  id: 'cli',
  tokenKind: null,
});

/** What a command runs with. The database pool is opened on first use and closed by the runner. */
export class CliContext {
  private db: Database | undefined;
  readonly hasher = new PasswordHasher();
  /**
   * The runner runs each command inside `checkpoints.run`, so the audit links it committed are logged as
   * `audit.checkpoint` JSON lines on stderr (stdout stays the command's result), as the API logs its own.
   */
  readonly checkpoints: AuditCheckpointLogger;

  constructor(
    readonly io: CliIo,
    readonly config: CliConfig,
  ) {
    const logger = createLogger({
      name: 'gatehouse-cli',
      level: 'info',
      destination: { write: (line: string) => io.err(line.replace(/\n$/, '')) },
    });
    this.checkpoints = new AuditCheckpointLogger(logger);
  }

  database(): Database {
    this.db ??= createDatabase({ url: requireDatabaseUrl(this.config), poolMax: 2 });
    return this.db;
  }

  async close(): Promise<void> {
    await this.db?.close();
  }

  /** `key: value` lines for people, or one JSON object with --json for scripts. */
  print(record: Readonly<Record<string, string | number | null | readonly string[]>>, json: boolean): void {
    if (json) {
      this.io.out(JSON.stringify(record));
      return;
    }
    for (const [key, value] of Object.entries(record)) {
      this.io.out(`${key}: ${Array.isArray(value) ? value.join(',') : String(value ?? '')}`);
    }
  }
}
