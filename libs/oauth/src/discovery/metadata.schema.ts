// The fields of the two metadata documents that discovery relies on (RFC 9728, RFC 8414 / OIDC discovery).
// Unknown fields are allowed (both documents are extensible); the fields read are typed strictly.
import { z } from 'zod';

const url = z.string().min(1).max(2_048);

export const protectedResourceMetadataSchema = z.object({
  resource: url,
  authorization_servers: z.array(url).max(16).optional(),
  scopes_supported: z.array(z.string().max(256)).max(256).optional(),
});
export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadataSchema>;

export const authorizationServerMetadataSchema = z.object({
  issuer: url,
  authorization_endpoint: url.optional(),
  token_endpoint: url.optional(),
  registration_endpoint: url.optional(),
  revocation_endpoint: url.optional(),
  code_challenge_methods_supported: z.array(z.string().max(64)).max(32).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string().max(64)).max(32).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  client_id_metadata_document_supported: z.boolean().optional(),
  scopes_supported: z.array(z.string().max(256)).max(512).optional(),
});
export type AuthorizationServerMetadata = z.infer<typeof authorizationServerMetadataSchema>;
