export type MigrationErrorCode =
  | 'migration_checksum_mismatch'
  | 'migration_unknown_in_database'
  | 'migration_unfinished'
  | 'migration_failed';

/** The runner refuses to go on; the message names the migration and what to do. */
export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    readonly migrationName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export class MigrationChecksumMismatchError extends MigrationError {
  constructor(migrationName: string) {
    super(
      'migration_checksum_mismatch',
      migrationName,
      `migration ${migrationName} was edited after it was applied (checksum differs); add a new migration instead`,
    );
    this.name = 'MigrationChecksumMismatchError';
  }
}

export class UnknownAppliedMigrationError extends MigrationError {
  constructor(migrationName: string) {
    super(
      'migration_unknown_in_database',
      migrationName,
      `migration ${migrationName} is applied in the database but missing from the migrations directory`,
    );
    this.name = 'UnknownAppliedMigrationError';
  }
}

export class UnfinishedMigrationError extends MigrationError {
  constructor(migrationName: string) {
    super(
      'migration_unfinished',
      migrationName,
      `migration ${migrationName} was started but never finished; resolve it by hand before migrating`,
    );
    this.name = 'UnfinishedMigrationError';
  }
}

export class MigrationFailedError extends MigrationError {
  constructor(migrationName: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      'migration_failed',
      migrationName,
      `migration ${migrationName} failed and was rolled back: ${detail}`,
      {
        cause,
      },
    );
    this.name = 'MigrationFailedError';
  }
}
