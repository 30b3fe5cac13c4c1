import type { oauthCredentialPage } from '@gatehouse/contracts';
import type { OAuthCredentialRow } from '@gatehouse/db';
import type { z } from 'zod';
import { badCursor } from '../shared/command-problems';
import { oauthCredentialViewOf } from './oauth-credential-view';

type Page = z.infer<typeof oauthCredentialPage>;

/**
 * One page of a subject's credentials behind an offset cursor: a subject has a handful (one per server and
 * issuer), all read at once, so an offset over the ordered list is exact.
 */
export function oauthCredentialPageOf(
  rows: readonly OAuthCredentialRow[],
  input: { readonly cursor?: string | undefined; readonly limit: number },
): Page {
  const offset = offsetOf(input.cursor);
  const next = offset + input.limit;
  return {
    items: rows.slice(offset, next).map(oauthCredentialViewOf),
    nextCursor: next < rows.length ? Buffer.from(`o:${next}`, 'utf8').toString('base64url') : null,
  };
}

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d{1,6})$/.exec(text);
  if (match === null) throw badCursor();
  return Number(match[1]);
}
