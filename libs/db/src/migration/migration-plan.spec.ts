import { planMigrations, type AppliedMigration } from './migration-plan';
import type { MigrationFile } from './migration-files';

const file = (name: string, checksum = `sum-${name}`): MigrationFile => ({ name, sql: 'SELECT 1', checksum });
const applied = (name: string, checksum = `sum-${name}`, finished = true): AppliedMigration => ({
  name,
  checksum,
  finished,
});

describe('planMigrations', () => {
  it('applies every file on an empty history, in order', () => {
    const plan = planMigrations([file('1_a'), file('2_b')], []);
    expect(plan).toMatchObject({ ok: true, applied: [] });
    expect(plan.ok && plan.pending.map((f) => f.name)).toEqual(['1_a', '2_b']);
  });

  it('has nothing pending when everything is applied with matching checksums', () => {
    const plan = planMigrations([file('1_a'), file('2_b')], [applied('1_a'), applied('2_b')]);
    expect(plan).toEqual({ ok: true, pending: [], applied: ['1_a', '2_b'] });
  });

  it('applies a file older than the newest applied one (merged branches)', () => {
    const plan = planMigrations([file('1_a'), file('2_b'), file('3_c')], [applied('1_a'), applied('3_c')]);
    expect(plan.ok && plan.pending.map((f) => f.name)).toEqual(['2_b']);
  });

  it('refuses an applied file whose checksum changed, naming it', () => {
    const plan = planMigrations([file('1_a', 'edited'), file('2_b')], [applied('1_a')]);
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.error).toMatchObject({
      code: 'migration_checksum_mismatch',
      migrationName: '1_a',
    });
  });

  it('refuses a migration the database has but the files do not', () => {
    const plan = planMigrations([file('1_a')], [applied('1_a'), applied('2_gone')]);
    expect(!plan.ok && plan.error).toMatchObject({
      code: 'migration_unknown_in_database',
      migrationName: '2_gone',
    });
  });

  it('refuses an unfinished migration', () => {
    const plan = planMigrations([file('1_a')], [applied('1_a', 'sum-1_a', false)]);
    expect(!plan.ok && plan.error).toMatchObject({ code: 'migration_unfinished', migrationName: '1_a' });
  });
});
