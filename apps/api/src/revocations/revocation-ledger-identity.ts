import { readRevocationLedgerId, type Database } from '@gatehouse/db';

// The ledger's identity is fixed for a database's life (decision 0120): read once per Database, shared by the
// relay (which stamps every announcement with it) and the page reader (which names it on every page).
const identities = new WeakMap<Database, Promise<string>>();

export function revocationLedgerIdOf(db: Database): Promise<string> {
  const known = identities.get(db);
  if (known !== undefined) return known;
  const reading = db.lookup((query) => readRevocationLedgerId(query));
  identities.set(db, reading);
  // A failed read (the database away) is not remembered: the next caller asks again.
  reading.catch(() => identities.delete(db));
  return reading;
}
