import type { ViewOverlayRow, ViewSourceRow, ViewVariableRow, TenantTx } from '@gatehouse/db';
import type {
  DefinitionSourceInput,
  DisableOverlay,
  FingerprintKey,
  ResolveInput,
  SourceRef,
} from '@gatehouse/definitions';
import type { DefinitionCipher } from './definition-cipher';

type VariableValues = ResolveInput['variables'];

interface SourceRow {
  readonly input: DefinitionSourceInput;
  readonly tier: string;
  readonly workspaceId: string | null;
  readonly ownerUserId: string | null;
  readonly updatedBy: string | null;
}

interface VariableRow {
  readonly scope: 'tenant' | 'workspace' | 'user';
  readonly workspaceId: string | null;
  readonly userId: string | null;
  readonly name: string;
  /** Undefined when the value cannot be opened: it then counts as unset, never as a wrong value. */
  readonly value: string | undefined;
  readonly updatedBy: string | null;
}

interface AuthorRow {
  readonly origin: string;
  readonly entryName: string;
  readonly userId: string;
  readonly changedAt: Date;
}

interface OverlayRow {
  readonly workspaceId: string;
  readonly userId: string | null;
  readonly serverName: string;
  readonly reason: string | null;
}

/**
 * Everything some views of a tenant resolve from, read and decrypted once: tenant-wide sources and variables, the
 * given workspaces' project sources, variables and overlays, and the given users' own sources, variables and
 * overlays. An event that re-decides many workspaces (a managed source written) then costs a constant number of
 * queries and one decryption per row, instead of a round of queries and decryptions per view.
 */
export class DefinitionSnapshot {
  constructor(
    private readonly sources: readonly SourceRow[],
    private readonly variables: readonly VariableRow[],
    private readonly overlays: readonly OverlayRow[],
    private readonly authors: readonly AuthorRow[],
    /** The tenant's fingerprint key (keyed fingerprints and review digests). */
    readonly fingerprintKey: FingerprintKey,
  ) {}

  /** What `resolveDefinitions` needs for one view; another user's rows are never part of it. */
  inputFor(workspaceId: string, userId: string | null): ResolveInput {
    const sources = this.sources
      .filter((row) => this.#sourceInView(row, workspaceId, userId))
      .map((row) => row.input);
    const variables: VariableValues = { tenant: {}, workspace: {}, user: {} };
    for (const row of this.variables) {
      if (row.value === undefined || !this.#variableInView(row, workspaceId, userId)) continue;
      Object.defineProperty(variables[row.scope], row.name, { value: row.value, enumerable: true });
    }
    const overlays: DisableOverlay[] = this.overlays
      .filter((row) => row.workspaceId === workspaceId && (row.userId === null || row.userId === userId))
      .map((row) => ({
        serverName: row.serverName,
        scope: row.userId === null ? { kind: 'workspace' } : { kind: 'user', userId: row.userId },
      }));
    return {
      sources,
      variables,
      overlays,
      view: userId === null ? { kind: 'workspace' } : { kind: 'principal', userId },
      fingerprintKey: this.fingerprintKey,
    };
  }

  /**
   * Whether the user has anything of their own in this workspace's view (a user or local source, a user variable,
   * an own overlay). Without it their view resolves exactly like the workspace's.
   */
  hasOwnRows(workspaceId: string, userId: string): boolean {
    return (
      this.sources.some(
        (row) => row.ownerUserId === userId && this.#sourceInView(row, workspaceId, userId),
      ) ||
      this.variables.some((row) => row.userId === userId) ||
      this.overlays.some((row) => row.workspaceId === workspaceId && row.userId === userId)
    );
  }

  /**
   * Who changed this entry of this source (or this variable of this holder, origin `variable:<holder>`) after
   * `since` (null: ever). `undefined` when no change of it was ever recorded (data older than the record).
   */
  entryAuthorsSince(origin: string, entryName: string, since: Date | null): string[] | undefined {
    const rows = this.authors.filter((row) => row.origin === origin && row.entryName === entryName);
    if (rows.length === 0) return undefined;
    return rows
      .filter((row) => since === null || row.changedAt.getTime() > since.getTime())
      .map((row) => row.userId);
  }

  /** Who last wrote the source of this origin (null: unknown). */
  sourceWriter(origin: string): string | null {
    return this.sources.find((row) => row.input.origin === origin)?.updatedBy ?? null;
  }

  /** Who last set a variable of this name where this view reads it. */
  variableWriters(workspaceId: string, userId: string | null, name: string): string[] {
    return this.variables
      .filter((row) => row.name === name && this.#variableInView(row, workspaceId, userId))
      .flatMap((row) => (row.updatedBy === null ? [] : [row.updatedBy]));
  }

  /** The overlay that disables a server in a view (the workspace's wins over the user's own), with its reason. */
  overlayOf(
    workspaceId: string,
    userId: string | null,
    serverName: string,
  ): { scope: 'workspace' | 'user'; reason: string | null } | null {
    const rows = this.overlays.filter(
      (row) =>
        row.workspaceId === workspaceId &&
        row.serverName === serverName &&
        (row.userId === null || row.userId === userId),
    );
    const row = rows.find((candidate) => candidate.userId === null) ?? rows[0];
    if (row === undefined) return null;
    return { scope: row.userId === null ? 'workspace' : 'user', reason: row.reason };
  }

  #sourceInView(row: SourceRow, workspaceId: string, userId: string | null): boolean {
    switch (row.tier) {
      case 'managed':
      case 'plugin':
        return true;
      case 'project':
        return row.workspaceId === workspaceId;
      case 'user':
        return userId !== null && row.ownerUserId === userId;
      case 'local':
        return userId !== null && row.ownerUserId === userId && row.workspaceId === workspaceId;
      default:
        return false;
    }
  }

  #variableInView(row: VariableRow, workspaceId: string, userId: string | null): boolean {
    switch (row.scope) {
      case 'tenant':
        return true;
      case 'workspace':
        return row.workspaceId === workspaceId;
      case 'user':
        return userId !== null && row.userId === userId;
      default:
        return false;
    }
  }
}

/** Reads (and decrypts once) what the given workspaces and users' views resolve from. */
export async function loadDefinitionSnapshot(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: { tenantId: string; workspaceIds: readonly string[]; userIds: readonly string[] },
): Promise<DefinitionSnapshot> {
  const workspaceIds = [...new Set(args.workspaceIds)];
  const userIds = [...new Set(args.userIds)];
  const sources = await tx.definitionSource.findMany({
    where: {
      OR: [
        { tier: { in: ['managed', 'plugin'] } },
        { tier: 'project', workspaceId: { in: workspaceIds } },
        { tier: 'user', ownerUserId: { in: userIds } },
        { tier: 'local', workspaceId: { in: workspaceIds }, ownerUserId: { in: userIds } },
      ],
    },
    orderBy: { origin: 'asc' },
  });
  const holders = [
    'tenant',
    ...workspaceIds.map((id) => `workspace:${id}`),
    ...userIds.map((id) => `user:${id}`),
  ];
  const variables = await tx.definitionVariable.findMany({ where: { holder: { in: holders } } });
  const overlays = await tx.disableOverlay.findMany({
    where: {
      workspaceId: { in: workspaceIds },
      holder: { in: ['workspace', ...userIds.map((id) => `user:${id}`)] },
    },
  });
  const authorOrigins = [
    ...sources.map((row) => row.origin),
    ...holders.map((holder) => `variable:${holder}`),
  ];
  const authors = await tx.definitionEntryAuthor.findMany({
    where: { origin: { in: authorOrigins } },
    select: { origin: true, entryName: true, userId: true, changedAt: true },
  });
  return definitionSnapshotOf(cipher, args.tenantId, { sources, variables, overlays, authors });
}

/**
 * The snapshot of rows already read (through Prisma above, or in one round trip by a hot path such as lease
 * issuance, libs/db readLeaseIssuanceInputs), decrypted once. The rows must be those the views' filters select.
 */
export function definitionSnapshotOf(
  cipher: Pick<DefinitionCipher, 'openDocument' | 'openValue' | 'fingerprintKeyFor'>,
  tenantId: string,
  rows: {
    readonly sources: readonly ViewSourceRow[];
    readonly variables: readonly ViewVariableRow[];
    readonly overlays: readonly ViewOverlayRow[];
    readonly authors: readonly AuthorRow[];
  },
): DefinitionSnapshot {
  const sources = rows.sources.map((row): SourceRow => {
    const text = cipher.openDocument(row, row.documentCt);
    const ref: SourceRef = { tier: row.tier as SourceRef['tier'], origin: row.origin };
    return {
      input:
        text === undefined
          ? { ...ref, readability: 'unreadable' }
          : { ...ref, readability: 'readable', document: text },
      tier: row.tier,
      workspaceId: row.workspaceId,
      ownerUserId: row.ownerUserId,
      updatedBy: row.updatedBy,
    };
  });
  const variables = rows.variables.map((row): VariableRow => ({
    scope: row.scope,
    workspaceId: row.workspaceId,
    userId: row.userId,
    name: row.name,
    value: cipher.openValue({ id: row.id, tenantId }, row.valueCt),
    updatedBy: row.updatedBy,
  }));
  const overlays = rows.overlays.map((row): OverlayRow => ({
    workspaceId: row.workspaceId,
    userId: row.userId,
    serverName: row.serverName,
    reason: row.reason,
  }));
  return new DefinitionSnapshot(
    sources,
    variables,
    overlays,
    rows.authors,
    cipher.fingerprintKeyFor(tenantId),
  );
}
