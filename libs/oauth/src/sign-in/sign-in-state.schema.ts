// The stored form of a sign-in state record, read back strictly: a record Redis returns that does not parse
// is treated as absent. The PKCE verifier is stored sealed (`codeVerifierCt`, base64url), never as text.
import { z } from 'zod';

const id = z.string().min(1).max(200);

export const storedSignInStateSchema = z.strictObject({
  binding: z.strictObject({ tenantId: id, userId: id, sessionId: id }),
  subject: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('user'), userId: id }),
    z.strictObject({ kind: z.literal('workspace'), workspaceId: id }),
  ]),
  serverIdentity: z.string().min(1).max(512),
  resource: z.string().min(1).max(2_048),
  issuer: z.string().min(1).max(2_048),
  issParameterSupported: z.boolean(),
  tokenEndpoint: z.string().min(1).max(2_048),
  revocationEndpoint: z.string().min(1).max(2_048).nullable(),
  clientId: z.string().min(1).max(2_048),
  tokenEndpointAuthMethod: z.enum(['none', 'client_secret_basic', 'client_secret_post']),
  redirectUri: z.string().min(1).max(2_048),
  codeVerifierCt: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .max(1_024),
  expiresAt: z.number().int().nonnegative(),
});
