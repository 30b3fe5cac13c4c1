import { KIND_SCOPES, MEMBERSHIP_ROLES } from '@gatehouse/commands';
import { MEMBERSHIP_ROLES as DASHBOARD_ROLES } from '../apps/dashboard/src/server/capabilities';
import { KIND_SCOPE_CEILING, TENANT_TOKEN_KINDS } from '../apps/dashboard/src/views/token-kinds';

// The dashboard may import only @gatehouse/contracts, so it keeps copies of a few lists from libs/commands. This
// is where a copy that drifted from its source fails.

describe('dashboard copies of the command lists', () => {
  it.each(TENANT_TOKEN_KINDS)('offers exactly the scopes a %s token may hold', (kind) => {
    expect([...KIND_SCOPE_CEILING[kind]].sort()).toEqual([...KIND_SCOPES[kind]].sort());
  });

  it('knows the same membership roles, in the same order', () => {
    expect([...DASHBOARD_ROLES]).toEqual([...MEMBERSHIP_ROLES]);
  });
});
