import {
  KIND_SCOPES,
  ROLE_SCOPES,
  type MembershipRole,
  type Scope,
  type TokenKind,
} from '@gatehouse/contracts';

// What a token kind may ever do. Use cases check ownership and role on top of this; a scope only opens the door.
// The lists are declared in @gatehouse/contracts (decision 0063), which the dashboard reads too.
export {
  KIND_SCOPES,
  MEMBERSHIP_ROLES,
  ROLE_SCOPES,
  SCOPES,
  TOKEN_KINDS,
  isScope,
  type MembershipRole,
  type Scope,
  type TokenKind,
} from '@gatehouse/contracts';

/** Scopes in `requested` that `kind` may never hold (empty when the request is allowed). */
export function scopesBeyondKind(kind: TokenKind, requested: readonly Scope[]): Scope[] {
  const ceiling = KIND_SCOPES[kind];
  return requested.filter((scope) => !ceiling.includes(scope));
}

/** Scopes in `requested` that the role does not hold (a user can never mint more than they have). */
export function scopesBeyondRole(role: MembershipRole, requested: readonly Scope[]): Scope[] {
  const held = ROLE_SCOPES[role];
  return requested.filter((scope) => !held.includes(scope));
}
