/**
 * A definition document says what a server IS; it never says whether it may run. Approval is decided by a
 * human approver in Gatehouse and bound to an exact identity, so a document member that claims approval or trust
 * (`approved`, `autoApprove`, `alwaysAllow`, `trusted`, `trustLevel`, `preApproved`...) is refused at decode
 * rather than ignored: ignoring it would let an author believe it took effect, and honouring it would let a
 * project or plugin source approve itself.
 */
/** The key's ASCII letters, lowercased. One regular-expression pass: never a string built a character at a time. */
function squash(key: string): string {
  return key.replace(/[^A-Za-z]+/g, '').toLowerCase();
}

/** Members of the format whose names mention trust but claim nothing: they ask for a check. */
const NOT_A_CLAIM = new Set(['requirestrustedworkspace']);
const CLAIM_FRAGMENTS = [
  'approv',
  'trust',
  'alwaysallow',
  'autoallow',
  'preauthori',
  'allowlisted',
  'whitelisted',
];

export function claimsApprovalOrTrust(key: string): boolean {
  const squashed = squash(key);
  if (NOT_A_CLAIM.has(squashed)) return false;
  return CLAIM_FRAGMENTS.some((fragment) => squashed.includes(fragment));
}

/** `clientSecret`, `client_secret`, `CLIENT-SECRET`: a client secret never lives in a definition. */
export function isClientSecretKey(key: string): boolean {
  return squash(key) === 'clientsecret';
}
