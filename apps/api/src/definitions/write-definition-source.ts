import { randomUUID } from 'node:crypto';
import type { definitionSourceView } from '@gatehouse/commands';
import type { Database, TenantTx } from '@gatehouse/db';
import {
  checkDocumentText,
  decodeDefinitionDocument,
  findTooDeep,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_SERVERS_PER_DOCUMENT,
  type DocumentProblem,
} from '@gatehouse/definitions';
import type { z } from 'zod';
import { changedServerNames, recordEntryAuthors } from '../approval-requests/entry-authorship';
import type { OpenedRequest } from '../approval-requests/approval-requests-opener';
import {
  changeScopeOfSource,
  FAN_OUT_UNIT_OF_WORK,
  openRequestsAfterChange,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../auth/audit-actor';
import { conflict, ValidationProblemError } from '../shared/command-problems';
import { isUniqueViolation } from '../shared/unique-violation';
import { findRefusedCharacter, invalidCharacters } from '../http/nul-character.guard';
import { assertMayWriteSource, sourceTargetOf, type SourceTargetInput } from './definition-access';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { restorePlaceholders } from './definition-placeholder-restore';
import { problemsOf, toSourceView } from './definition-source-view';
import { appendLeaseChange } from '../revocations/lease-change-event';
import { entryChangesBetween, sameDocument, type EntryChange } from './source-entry-changes';
import { storeSourceVersion } from './definition-source-version.store';

export interface WriteSourceInput extends SourceTargetInput {
  readonly expectedVersion?: number | undefined;
}

/** The document as sent: a parsed JSON object (put) or the text of a file (import). */
export type SentDocument =
  { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'text'; readonly text: string };

const UNREADABLE_DETAIL = 'The document is not a readable `{ "mcpServers": { … } }` source.';

/** Why a whole document is refused, for the client: the reason's code first, never a value. */
function refusalMessage(problem: DocumentProblem): string {
  switch (problem.reason) {
    case 'too_many_servers':
      return `may hold at most ${MAX_SERVERS_PER_DOCUMENT} servers`;
    case 'document_too_large':
      return `document_too_large: at most ${MAX_DOCUMENT_BYTES} bytes of UTF-8 text`;
    case 'document_too_deep':
      return `document_too_deep: nests deeper than ${MAX_DOCUMENT_DEPTH} levels`;
    case 'duplicate_key':
      return 'duplicate_key: this key is written twice in one object; each key may appear once';
    default:
      return problem.reason;
  }
}

function refuseDocument(problem: DocumentProblem): ValidationProblemError {
  return new ValidationProblemError(
    [{ path: ['document', ...problem.path].join('.'), message: refusalMessage(problem) }],
    UNREADABLE_DETAIL,
  );
}

/**
 * The document as a value, judged before anything walks it: a file's text for its size, repeated keys (which
 * JSON.parse would resolve silently, last wins) and depth; a parsed body for its depth (its repeated keys were
 * already resolved by the body parser). The placeholder restore and JSON.stringify below recurse, so nothing
 * deeper than the bound may reach them.
 */
function sentValueOf(document: SentDocument): unknown {
  if (document.kind === 'value') {
    const tooDeep = findTooDeep(document.value);
    if (tooDeep) throw refuseDocument({ reason: 'document_too_deep', path: tooDeep });
    return document.value;
  }
  const checked = checkDocumentText(document.text);
  if (checked.ok) return checked.value;
  if (checked.problem.reason === 'invalid_json') {
    throw new ValidationProblemError(
      [{ path: 'content', message: 'is not JSON' }],
      'The document is not readable.',
    );
  }
  throw refuseDocument(checked.problem);
}

/** What a write did (or, in a dry run, would do), for the preview and the tests. */
export interface SourceWriteOutcome {
  readonly view: z.infer<typeof definitionSourceView>;
  /** false: the document sent is the stored one (up to key order): nothing was written, audited or opened. */
  readonly written: boolean;
  /** The version before the write; null when the write creates the source. */
  readonly previousVersion: number | null;
  readonly entryChanges: readonly EntryChange[];
  readonly opened: readonly OpenedRequest[];
}

export interface WriteSourceArgs {
  readonly principal: TenantPrincipal;
  readonly input: WriteSourceInput;
  readonly document: SentDocument;
  readonly action: string;
}

/** Put and import: one transaction (see writeSourceInTx), a create that raced another one answered as 409. */
export async function writeDefinitionSource(
  db: Database,
  cipher: DefinitionCipher,
  args: WriteSourceArgs,
): Promise<z.infer<typeof definitionSourceView>> {
  return answerRacedCreate(async () =>
    db.withTenant(
      args.principal.tenantId,
      async (tx) => (await writeSourceInTx(tx, cipher, args)).view,
      FAN_OUT_UNIT_OF_WORK,
    ),
  );
}

/** A unique violation here is a source created by someone else since this write read: their version wins. */
export async function answerRacedCreate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('The source was created meanwhile; read it and resend with its version.');
    throw error;
  }
}

/**
 * Put and import, inside the caller's transaction: checks who may write the tier, applies optimistic concurrency
 * (`expectedVersion`), keeps stored values sent back as their placeholder, refuses an unreadable document (bad
 * entries are kept and reported: each entry decodes alone), encrypts the document, stores it as a new version
 * too, and audits the write (origin, version, counts; never content). A document equal to the stored one (up to
 * key order, after placeholders are restored) changes nothing: no version, no event, no audit row, no request.
 * Writing a source never creates or changes an APPROVAL (a project or plugin source cannot approve itself, and the
 * writer's word is not a decision): it only opens approval REQUESTS, in the same transaction, for the entries the
 * write left needing a human's review, with the writer as their author.
 */
export async function writeSourceInTx(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: WriteSourceArgs,
): Promise<SourceWriteOutcome> {
  const { principal, input } = args;
  const target = await sourceTargetOf(tx, principal, input);
  await assertMayWriteSource(tx, principal, target);
  const existing = await tx.definitionSource.findUnique({
    where: { tenantId_origin: { tenantId: principal.tenantId, origin: target.origin } },
  });
  if (existing === null && input.expectedVersion !== undefined)
    throw conflict('The source does not exist (yet); omit expectedVersion to create it.');
  if (existing !== null && input.expectedVersion === undefined)
    throw conflict('The source exists; send expectedVersion (its current version) to replace it.');
  if (existing !== null && existing.version !== input.expectedVersion)
    throw conflict('The source changed since you read it; read it again and resend.');

  const sent = sentValueOf(args.document);
  // An imported file's text passes the edge's guard as text: its `\u0000` and lone `\ud800` escapes only
  // become characters here, and neither can be stored (jsonb refuses both), so they are refused the same way.
  const refused = findRefusedCharacter(sent);
  if (refused !== null) throw invalidCharacters(refused);
  const storedText = existing === null ? undefined : cipher.openDocument(existing, existing.documentCt);
  const stored = storedText === undefined ? undefined : safeParse(storedText);
  const restored = restorePlaceholders(sent, stored);
  if (!restored.ok) {
    throw new ValidationProblemError(
      restored.paths.map((path) => ({
        path: `document.${path}`,
        message:
          restored.reason === 'destination_changed'
            ? 'keeps a stored secret while its command, arguments, cwd or URL changed; re-enter the secret'
            : 'holds a redaction placeholder that does not match the stored value here; send the full value',
      })),
    );
  }
  const entryChanges = entryChangesBetween(stored, restored.value);
  if (existing !== null && storedText !== undefined && sameDocument(stored, restored.value)) {
    return {
      view: toSourceView(existing, storedText),
      written: false,
      previousVersion: existing.version,
      entryChanges,
      opened: [],
    };
  }
  const text =
    args.document.kind === 'text' && restored.value === sent
      ? args.document.text
      : JSON.stringify(restored.value);

  const decoded = decodeDefinitionDocument(text, { tier: target.tier, origin: target.origin });
  // Too many servers (or bytes) is refused here rather than stored: one write must not fan out without bound.
  if (!decoded.readable) throw refuseDocument(decoded.problem);
  const id = existing?.id ?? randomUUID();
  const documentCt = cipher.sealDocument({ id, tenantId: principal.tenantId }, text);
  const common = {
    documentCt,
    readability: 'readable',
    problems: problemsOf(decoded) as object[],
    updatedBy: principal.userId,
  };
  let row;
  if (existing === null) {
    row = await tx.definitionSource.create({
      data: {
        id,
        tenantId: principal.tenantId,
        tier: target.tier,
        origin: target.origin,
        workspaceId: target.workspaceId,
        ownerUserId: target.ownerUserId,
        ...common,
      },
    });
  } else {
    const updated = await tx.definitionSource.updateMany({
      where: { id, version: existing.version },
      data: { ...common, version: existing.version + 1 },
    });
    if (updated.count !== 1)
      throw conflict('The source changed since you read it; read it again and resend.');
    row = await tx.definitionSource.findUniqueOrThrow({ where: { id } });
  }
  await storeSourceVersion(tx, cipher, {
    tenantId: principal.tenantId,
    sourceId: row.id,
    version: row.version,
    text,
    entries: decoded.entries.length,
    problems: decoded.problems.length,
    writtenBy: principal.userId,
  });
  // Before the opener: it counts everyone who changed an entry since its last approval as an author.
  await recordEntryAuthors(tx, {
    tenantId: principal.tenantId,
    origin: row.origin,
    entryNames: changedServerNames(stored, restored.value),
    userId: principal.userId,
  });
  const opened = await openRequestsAfterChange(
    tx,
    cipher,
    principal,
    changeScopeOfSource(target),
    'source_written',
  );
  await appendLeaseChange(tx, 'definition_changed', {
    definitionSourceId: row.id,
    workspaceId: row.workspaceId,
    userId: row.ownerUserId,
  });
  await appendAuditEvent(tx, {
    actor: auditActorOf(principal),
    action: args.action,
    target: { type: 'definition_source', id: row.id },
    outcome: 'success',
    data: {
      tier: row.tier,
      origin: row.origin,
      version: row.version,
      entries: decoded.entries.length,
      problems: decoded.problems.length,
    },
  });
  return {
    view: toSourceView(row, text),
    written: true,
    previousVersion: existing?.version ?? null,
    entryChanges,
    opened,
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
