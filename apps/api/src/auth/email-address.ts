import { z } from 'zod';

/**
 * The one spelling of an email we store and look up: trimmed, Unicode NFC, lower-cased. Lower-casing the
 * local part is technically lossy (RFC 5321 lets servers treat it case-sensitively) but no mail provider
 * does, and two accounts differing only in case would be a phishing gift.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

export const emailAddress = z.email().max(254);

export function isEmailAddress(value: string): boolean {
  return emailAddress.safeParse(value).success;
}
