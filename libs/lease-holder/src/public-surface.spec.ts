import * as surface from './index';

// The curated public surface of @gatehouse/lease-holder: what a lease holder needs of the API over HTTP and the
// books of what it holds. Nothing of Redis: that is @gatehouse/coordination's. A new export is added here on
// purpose.

const RUNTIME_EXPORTS = [
  'HeldLeases',
  'LeaseApiClient',
  'LeaseApiError',
  'RevocationsReadError',
  'createHttpRevocationsReader',
  'freshLeaseTokens',
  'leaseConcernedBy',
];

describe('@gatehouse/lease-holder public surface', () => {
  it('exports exactly the curated names', () => {
    expect(Object.keys(surface).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });
});
