// Public surface of @gatehouse/db. The only lib that imports Prisma; others get `TenantTx` and the model types.
export { createDatabase } from './database';
export type { CreateDatabaseOptions, Database, LookupQuery, UnitOfWork, UnitOfWorkOptions } from './database';
export type { TenantTx } from './tenancy/prisma-client';
export type { TenantReadQuery } from './tenancy/tenant-read-pipeline';
export { findWorkspacePage } from './reads/workspace.repository';
export type { WorkspacePageQuery } from './reads/workspace.repository';
export { readCatalogInputVersions } from './reads/catalog-input.repository';
export { readLeaseIssuanceInputs } from './reads/lease-issuance.repository';
export type {
  ViewAuthorRow,
  LeaseHostPolicyRow,
  LeaseIssuanceInputs,
  ViewOverlayRow,
  ViewSourceRow,
  ViewVariableRow,
} from './reads/lease-issuance.repository';
export type { CatalogInputVersions } from './reads/catalog-input.repository';
export {
  findCatalogSnapshotVersions,
  loadCatalogSnapshotContents,
} from './reads/catalog-snapshot.repository';
export type { CatalogSnapshotContent, CatalogSnapshotVersion } from './reads/catalog-snapshot.repository';
export { InvalidContextIdError, isUuid } from './tenancy/tenant-context';
export { UnsafeDatabaseRoleError } from './tenancy/role-safety.guard';
export type { UnsafeRoleReason } from './tenancy/role-safety.guard';

export {
  findTokenBySecretHash,
  findLiveSessionBySecretHash,
  findLoginByEmail,
  listTenantIds,
  findTenantIdBySlug,
} from './lookups/auth.repository';
export type { TokenLookup, SessionLookup, LoginLookup } from './lookups/auth.repository';
export { findInvitationBySecretHash } from './lookups/invitation.repository';
export type { InvitationLookup } from './lookups/invitation.repository';
export { findHeldLeaseTenant, findWorkspaceTenant } from './lookups/lease.repository';
export type { TenantRef } from './lookups/lease.repository';
export { insertGatewayToken, revokeGatewayToken } from './operator/gateway-token-operator';
export { afterCommit } from './tenancy/after-commit';
export {
  appendRevocationEvent,
  listUnpublishedRevocationEvents,
  markRevocationEventsPublished,
  readRevocationEventsSince,
  readRevocationLedgerId,
  sequenceRevocationEvents,
  toRevocationEvent,
} from './ledger/revocation-ledger.repository';
export type {
  RevocationEventInput,
  RevocationReadPage,
  RevocationScope,
  StoredRevocationEvent,
} from './ledger/revocation-ledger.repository';
export {
  leasesConcernedBy,
  lockHeldLease,
  revokeLeasesConcernedBy,
} from './leases/lease-revocation.repository';
export {
  claimUnrecordedExpiries,
  listTenantsWithUnrecordedExpiries,
} from './leases/approval-expiry.repository';
export type { ExpiredApproval } from './leases/approval-expiry.repository';
export type { InsertGatewayTokenOptions } from './operator/gateway-token-operator';
export {
  deleteOAuthCredential,
  findOAuthCredential,
  insertOAuthCredential,
  listOAuthCredentialsOfSubject,
  updateOAuthCredential,
} from './oauth/oauth-credential.repository';
export type {
  OAuthCredentialFields,
  OAuthCredentialIdentity,
  OAuthCredentialRow,
  OAuthCredentialStatus,
  OAuthSubjectRef,
} from './oauth/oauth-credential.repository';
export { findOAuthClient, findOAuthClientById, saveOAuthClient } from './oauth/oauth-client.repository';
export type { OAuthClientAuthMethod, OAuthClientKind, OAuthClientRow } from './oauth/oauth-client.repository';

export { runMigrations } from './migration/migration-runner';
export type {
  RunMigrationsOptions,
  RunMigrationsResult,
  MigrationLogger,
} from './migration/migration-runner';
export { findMigrationsDir } from './migration/migration-files';
export {
  MigrationError,
  MigrationChecksumMismatchError,
  UnknownAppliedMigrationError,
  UnfinishedMigrationError,
  MigrationFailedError,
} from './migration/migration-errors';
export type { MigrationErrorCode } from './migration/migration-errors';

export { DATABASE_ROLES } from './roles/database-roles';
export type { DatabaseRoleName } from './roles/database-roles';
export { setupDatabaseRoles } from './roles/role-setup';
export type { SetupDatabaseRolesOptions } from './roles/role-setup';
export { ensureDatabase, dropDatabase } from './roles/database-setup';
export type { EnsureDatabaseOptions, DropDatabaseOptions } from './roles/database-setup';
export { deriveConnectionUrl, databaseNameOf } from './roles/connection-url';
export type { ConnectionUrlParts } from './roles/connection-url';

export { MembershipRole, TokenKind } from './generated/enums';
export type {
  Tenant,
  User,
  Membership,
  Session,
  ApiToken,
  Workspace,
  WorkspaceMember,
  AuditEvent,
  AuditHead,
  Approval,
  ApprovalRequest,
  Invitation,
  Lease,
  CatalogSnapshot,
  CatalogDiscoveryFailure,
} from './generated/client';
import { Prisma } from './generated/client';
/** SQL NULL for a nullable Json column: Prisma refuses a plain `null` there (it would be ambiguous with JSON null). */
export const JSON_DB_NULL = Prisma.DbNull;

// Key rotation (libs/db/src/key-rotation): the registry of encrypted columns and the online re-encryption.
export { ENCRYPTED_COLUMNS, defaultEncryptedColumns } from './key-rotation/encrypted-columns';
export { countRowsNotOnKey, rotateKeys } from './key-rotation/rotate-keys';
export type {
  ColumnRotationResult,
  CountRowsNotOnKeyOptions,
  CountRowsNotOnKeyResult,
  RotateKeysOptions,
  RotateKeysResult,
  RotationCounts,
  RotationProgress,
} from './key-rotation/rotate-keys';
export {
  insertAuditEventsMovingHead,
  lockAuditHead,
  readAuditHeadSnapshot,
} from './audit/audit-chain.repository';
export type { AuditEventRow, AuditHeadSnapshot, LockedAuditHead } from './audit/audit-chain.repository';
export { upsertEntryAuthors } from './definitions/entry-author.repository';
export { lockOwnerMemberships } from './tenancy/membership.repository';
