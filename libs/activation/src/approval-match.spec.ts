import { differencesFrom } from './approval-match';
import { approvalFor, usableEntry, workspace, WORKSPACE_VIEW } from './test-support/activation.fixtures';
import { approvalIdentityOf } from './approval-identity';

function identityWith(fingerprint: string) {
  const result = approvalIdentityOf(usableEntry('project', { fingerprint }), workspace(), WORKSPACE_VIEW);
  if (!result.ok) throw new Error(result.reason);
  return result.identity;
}

describe('differencesFrom: the fingerprint scheme', () => {
  const recorded = (fingerprint: string) =>
    approvalFor(usableEntry('project', { fingerprint }), workspace(), WORKSPACE_VIEW);

  it('an approval under the unkeyed v1 fingerprint differs in its scheme, not in the definition', () => {
    expect(
      differencesFrom(identityWith(`v2:k1:${'c'.repeat(64)}`), recorded(`sha256:${'a'.repeat(64)}`)),
    ).toEqual(['fingerprint_scheme']);
  });

  it('another fingerprint key (the operator rotated the active key) is a scheme change too', () => {
    expect(
      differencesFrom(identityWith(`v2:k2:${'c'.repeat(64)}`), recorded(`v2:k1:${'c'.repeat(64)}`)),
    ).toEqual(['fingerprint_scheme']);
  });

  it('the same scheme with another hash is a changed definition', () => {
    expect(
      differencesFrom(identityWith(`v2:k1:${'c'.repeat(64)}`), recorded(`v2:k1:${'d'.repeat(64)}`)),
    ).toEqual(['fingerprint']);
    expect(
      differencesFrom(identityWith(`v2:k1:${'c'.repeat(64)}`), recorded(`v2:k1:${'c'.repeat(64)}`)),
    ).toEqual([]);
  });
});
