// The per-server authenticator hook: asked for headers before every request to its one server, after admission
// (the OAuth issue plugs a token source in here; a header helper is one too). Its headers override a static
// header of the same name. Refusals are typed and carry nothing the authenticator returned.

/** What the server said when it refused a request's headers. */
export interface AuthRefusal {
  readonly challenge: string | null;
}

export interface Authenticator {
  /** Headers for the next request. Thrown errors fail that request as `authenticator_failed`. */
  headers(): Promise<Readonly<Record<string, string>>>;
  /**
   * The server refused the current headers (401, or 403 insufficient_scope: step-up). Resolve true once fresh headers are ready and the refused
   * requests may be sent once more; false when no fresh credential may be had (the refusal then stands). The
   * transport calls this at most once per refused generation of headers, however many requests it refused.
   * `refusal.challenge` is the refusing response's WWW-Authenticate (where its resource metadata and scope are
   * named), null when it had none.
   */
  refresh(refusal?: AuthRefusal): Promise<boolean>;
}
