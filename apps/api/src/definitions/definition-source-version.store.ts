import { randomUUID } from 'node:crypto';
import type { TenantTx } from '@gatehouse/db';
import type { DefinitionCipher } from '../effective-view/definition-cipher';

/** How many versions of one source are kept: enough history to review, bounded whatever the write rate. */
export const KEPT_SOURCE_VERSIONS = 100;

/**
 * Stores one written version of a source's document, sealed to its own row, in the write's transaction, and
 * drops the versions older than the kept number. Called only by a write that changed the document.
 */
export async function storeSourceVersion(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: {
    tenantId: string;
    sourceId: string;
    version: number;
    text: string;
    entries: number;
    problems: number;
    writtenBy: string | null;
  },
): Promise<void> {
  const id = randomUUID();
  await tx.definitionSourceVersion.create({
    data: {
      id,
      tenantId: args.tenantId,
      sourceId: args.sourceId,
      version: args.version,
      documentCt: cipher.sealVersionDocument({ id, tenantId: args.tenantId }, args.text),
      entries: args.entries,
      problems: args.problems,
      writtenBy: args.writtenBy,
    },
  });
  await tx.definitionSourceVersion.deleteMany({
    where: { sourceId: args.sourceId, version: { lte: args.version - KEPT_SOURCE_VERSIONS } },
  });
}
