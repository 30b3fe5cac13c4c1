// Tokens as a token endpoint issues them (RFC 6749 §5.1), read strictly. Only the fields Gatehouse uses are
// kept; nothing else of the body travels further.
import { z } from 'zod';

export interface OAuthTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  /** Epoch milliseconds; null when the server did not say. */
  readonly expiresAt: number | null;
  readonly scope: string | null;
}

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1).max(16_384),
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer'),
  expires_in: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 24 * 3600)
    .optional(),
  refresh_token: z.string().min(1).max(16_384).optional(),
  scope: z.string().max(4_096).optional(),
});

export const tokenErrorSchema = z.object({ error: z.string().min(1).max(128) });

/** The OAuth error codes Gatehouse tells apart (RFC 6749 §5.2); every other code is `other`. */
export type TokenErrorCode =
  | 'invalid_grant'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'invalid_request'
  | 'invalid_scope'
  | 'invalid_target'
  | 'other';

const KNOWN_ERRORS: ReadonlySet<string> = new Set([
  'invalid_grant',
  'invalid_client',
  'unauthorized_client',
  'invalid_request',
  'invalid_scope',
  'invalid_target',
]);

export function tokenErrorCode(error: string): TokenErrorCode {
  return KNOWN_ERRORS.has(error) ? (error as TokenErrorCode) : 'other';
}
