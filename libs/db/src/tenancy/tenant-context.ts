const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant or user id that is not a uuid reached the data layer: a bug upstream, never a client error. */
export class InvalidContextIdError extends Error {
  constructor(readonly field: 'tenantId' | 'userId') {
    super(`${field} must be a uuid`);
    this.name = 'InvalidContextIdError';
  }
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Throws InvalidContextIdError unless the id is a uuid; returns it lower-cased. */
export function contextId(field: 'tenantId' | 'userId', value: string): string {
  if (!isUuid(value)) throw new InvalidContextIdError(field);
  return value.toLowerCase();
}
