/** SQLSTATEs that mean "someone else created it first" when two sessions race on a catalog object. */
const LOST_CREATE_RACE = new Set([
  '42710', // duplicate_object (CREATE ROLE)
  '42P04', // duplicate_database
  '23505', // unique_violation on the catalog's unique index
]);

export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

export function isLostCreateRace(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== undefined && LOST_CREATE_RACE.has(code);
}
