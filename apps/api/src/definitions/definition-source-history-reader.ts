import type { TenantTx } from '@gatehouse/db';
import type { TenantPrincipal } from '../auth/principal';
import { notFound } from '../shared/command-problems';
import { mayReadSource, type DefinitionTierName } from './definition-access';
import type { DefinitionCipher } from '../effective-view/definition-cipher';

/** A definition_sources row as Prisma returns it. */
export type DefinitionSource = Awaited<ReturnType<TenantTx['definitionSource']['findUniqueOrThrow']>>;

/** The source as its reader may see it; anything else (another's user source, another tenant's) is a 404. */
export async function readableSource(
  tx: TenantTx,
  principal: TenantPrincipal,
  sourceId: string,
): Promise<DefinitionSource> {
  const row = await tx.definitionSource.findUnique({ where: { id: sourceId } });
  if (row === null || !mayReadSource(principal, { ...row, tier: row.tier as DefinitionTierName }))
    throw notFound('definition source');
  return row;
}

export interface StoredVersion {
  readonly version: number;
  readonly createdAt: Date;
  /** undefined: the ciphertext did not open. */
  readonly text: string | undefined;
}

/**
 * One version's document: its version row, or the live row for a current version written before versions were
 * stored (decision 0086). null: no such version is kept.
 */
export async function readSourceVersion(
  tx: TenantTx,
  cipher: DefinitionCipher,
  source: DefinitionSource,
  version: number,
): Promise<StoredVersion | null> {
  const row = await tx.definitionSourceVersion.findUnique({
    where: { tenantId_sourceId_version: { tenantId: source.tenantId, sourceId: source.id, version } },
  });
  if (row !== null)
    return { version, createdAt: row.createdAt, text: cipher.openVersionDocument(row, row.documentCt) };
  if (version !== source.version) return null;
  return { version, createdAt: source.updatedAt, text: cipher.openDocument(source, source.documentCt) };
}
