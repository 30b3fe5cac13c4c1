// Where client registrations live, keyed by issuer: a changed issuer is a new registration, never a reuse.
// Pre-registered clients are the operator's or an admin's (their secrets encrypted in Postgres by the API,
// never in a definition); dynamic registrations are remembered here once made.
import type { RegisteredClient } from '../tokens/client-authentication';

export interface ClientRegistrationStore {
  /** The pre-registered client for exactly this issuer, if one was configured. */
  preRegistered(issuer: string): Promise<RegisteredClient | null>;
  /** A dynamic registration made earlier with exactly this issuer. */
  dynamicRegistration(issuer: string): Promise<RegisteredClient | null>;
  saveDynamicRegistration(client: RegisteredClient): Promise<void>;
}
