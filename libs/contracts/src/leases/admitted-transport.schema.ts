import { z } from 'zod';

// The admitted transport description: what a lease carries about HOW to reach one server, after the API has
// admitted it (URL admission, or stdio authority), and the only input libs/mcp-client constructs a transport
// from. Version 1, strict: a producer that adds a field bumps `v` rather than have old workers ignore it.
//
// It holds secrets (env values, header values, the principal): never log it or return it to a tenant-facing
// surface. It never holds the operator's denylist (a tenant-run worker may hold a lease): for http it carries
// the addresses the API checked, and the worker connects to those only.

const MAX_MS = 2_147_483_647;
/** RFC 9110 `token`: the characters a header field name may use. */
const headerName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
/** A field value: no CR, LF or NUL (no header splitting), bounded. */
const headerValue = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/);
const envName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const argvString = z.string().min(1).max(4096);
const argvPrefix = z.array(argvString).min(1).max(64);
/** An absolute path with no `..` segment (pool roots, cwd): the operator's WORKER_POOLS uses the same. */
export const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (path) => path.startsWith('/') && !path.split('/').includes('..'),
    'must be an absolute path without ..',
  );
/** A uid or gid a child may run as (runAs). */
export const unixId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/** The bound on the handshake and the initial listing, in whole milliseconds; null: the worker's default. */
const startupTimeoutMs = z.number().int().min(1_000).max(MAX_MS).nullable();

/** Header names compared case-insensitively: two spellings of one name are one header written twice. */
const headerRecord = z
  .record(headerName, headerValue)
  .refine((headers) => Object.keys(headers).length <= 64, 'at most 64 headers')
  .refine(
    (headers) =>
      new Set(Object.keys(headers).map((name) => name.toLowerCase())).size === Object.keys(headers).length,
    'a header name appears twice (header names are case-insensitive)',
  );

/**
 * One entry of a child env allowlist: an exact env name (`GITHUB_TOKEN`) or a prefix with a trailing `*`
 * (`MYCORP_*`: two or more characters before the `*`, ending with `_`). The grammar only; @gatehouse/activation
 * decides what an entry allows (and refuses one covering a name the spawner sets).
 */
export const childEnvKeyEntry = z
  .string()
  .min(1)
  .max(256)
  .regex(/^(?:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*_\*)$/, 'an env name, or a prefix ending with _*');

/**
 * The pool's authority over child processes as the lease hands it to the worker, for the spawn-time recheck: the
 * tenant's chosen argv prefixes (already narrowed to the ceiling), the operator's ceiling itself, the allowed
 * roots, the env names a definition may set (the pool's allowlist narrowed by the tenant's HostPolicy), and the
 * unprivileged uid/gid children run as (null: a root holder's CHILD_USER account outside production, a refusal in
 * production; a holder that is not root runs children as itself). `envKeys` is required:
 * a worker older than it refuses such a lease as an invalid description (fail closed), and a lease without it is
 * refused by a newer worker.
 */
export const processAuthority = z.strictObject({
  commands: z.array(argvPrefix).max(1000),
  ceiling: z.array(argvPrefix).max(1000),
  allowedRoots: z.array(absolutePath).max(100),
  envKeys: z.array(childEnvKeyEntry).max(1000),
  runAs: z.strictObject({ uid: unixId, gid: unixId }).nullable(),
});
export type ProcessAuthority = z.infer<typeof processAuthority>;

/**
 * The definition opts in to elicitation (its `elicitation: true` option): the holder may declare the capability to
 * this server and relay its `elicitation/create` to the calling session (decision 0107). Absent: never declared.
 */
const elicitationOptIn = z.literal(true).optional();

export const admittedHttpTransportV1 = z.strictObject({
  kind: z.literal('http'),
  /** The URL as admitted (path and query may be secret: never log it; name `origin` instead). */
  url: z
    .string()
    .max(8192)
    .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'must be an http(s) URL'),
  /** `scheme://host:port`, the port explicit: what errors and logs name. */
  origin: z.string().max(300),
  /** Every address the API checked for the URL's host: the only ones the worker connects to. */
  addresses: z
    .array(z.union([z.ipv4(), z.ipv6()]))
    .min(1)
    .max(64),
  /** The pool allows plain http to loopback (development and tests; refused in production by the API). */
  allowInsecureLoopback: z.boolean(),
  /** Private ranges this destination may be in (the tenant's opt-in within the operator's allowance). */
  privateRanges: z.array(z.union([z.cidrv4(), z.cidrv6()])).max(1000),
  /** Static headers from the definition (materialized; values may be secret). */
  headers: headerRecord,
  /** The principal header and the principal it carries, when the definition declares one and there is one. */
  principalHeader: z.strictObject({ name: headerName, value: headerValue }).nullable(),
  /** A header helper: the exact argv to run, under the pool's authority over helper processes. */
  headersHelper: z
    .strictObject({ argv: z.array(argvString).min(1).max(256), authority: processAuthority })
    .nullable(),
  startupTimeoutMs,
  /**
   * The definition declares OAuth: the access token the API got for the lease's principal (or the workspace's
   * service credential), sent as `Authorization: Bearer` on every request to this server only. Never a refresh
   * token; the lease ends no later than `expiresAt`. Absent for a server without OAuth (older producers too).
   */
  oauth: z
    .strictObject({
      accessToken: z
        .string()
        .min(1)
        .max(8192)
        .regex(/^[\x21-\x7e]+$/, 'a bearer token is visible ASCII'),
      expiresAt: z.iso.datetime({ offset: true }).nullable(),
    })
    .optional(),
  /**
   * The tenant's HostPolicy lists this origin in `traceContextOrigins`: the gateway may send a caller's W3C trace
   * context on that call's own requests (decision 0106). Absent: never.
   */
  traceContext: z.literal(true).optional(),
  elicitation: elicitationOptIn,
});

export const admittedStdioTransportV1 = z.strictObject({
  kind: z.literal('stdio'),
  command: argvString,
  args: z.array(z.string().max(32_768)).max(256),
  /** Materialized env (values may be secret). Every key is checked again at spawn against `authority.envKeys`. */
  env: z
    .record(envName, z.string().max(32_768))
    .refine((env) => Object.keys(env).length <= 256, 'at most 256'),
  /** As declared; null means the first allowed root. */
  cwd: z.string().max(4096).nullable(),
  authority: processAuthority,
  startupTimeoutMs,
  elicitation: elicitationOptIn,
});

/** What a lease carries about the transport (version 1). */
export const admittedTransportV1 = z.discriminatedUnion('kind', [
  admittedHttpTransportV1,
  admittedStdioTransportV1,
]);
export const admittedTransport = z.strictObject({ v: z.literal(1), transport: admittedTransportV1 });

export type AdmittedHttpTransport = z.infer<typeof admittedHttpTransportV1>;
export type AdmittedStdioTransport = z.infer<typeof admittedStdioTransportV1>;
export type AdmittedTransportDescription = z.infer<typeof admittedTransportV1>;
export type AdmittedTransport = z.infer<typeof admittedTransport>;
