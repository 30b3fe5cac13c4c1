// How Gatehouse authenticates as an OAuth client at a token or revocation endpoint. A secret comes from the
// client registration (encrypted in Postgres by the API), never from a definition.

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface RegisteredClient {
  /** The issuer this registration belongs to: a registration is never used with another issuer. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** How the client came to be: chosen in this order (see resolveClientRegistration). */
  readonly kind: 'pre_registered' | 'client_id_metadata_document' | 'dynamic';
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before the Basic encoding.
const formEncode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');

/** Adds the client's authentication to a form and returns the headers to send with it. */
export function authenticateClient(
  client: RegisteredClient,
  form: URLSearchParams,
): Readonly<Record<string, string>> {
  switch (client.tokenEndpointAuthMethod) {
    case 'none':
      form.set('client_id', client.clientId);
      return {};
    case 'client_secret_post':
      form.set('client_id', client.clientId);
      form.set('client_secret', client.clientSecret ?? '');
      return {};
    case 'client_secret_basic': {
      const basic = Buffer.from(
        `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`,
      ).toString('base64');
      return { authorization: `Basic ${basic}` };
    }
  }
}
