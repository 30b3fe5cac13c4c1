// The shapes of the one URL admission policy. The operator's fields come from the API's process config; the
// tenant's opted-in ranges come from its HostPolicy, already narrowed to the operator's ceiling by the caller.

/** An address range in CIDR notation, e.g. `10.0.0.0/8` or `fd00::/8` (plain dotted-quad or IPv6 only). */
export type Cidr = string;

export interface OperatorDenylist {
  /** The operator's own infrastructure (Postgres, Redis, internal networks). Always refused. */
  readonly cidrs: readonly Cidr[];
  /** Exact host names, or `*.example.internal` for every name below that suffix (not the suffix itself). */
  readonly hostnames: readonly string[];
}

export interface EgressPolicy {
  /** Development and tests only (production config refuses it): lets https and http reach loopback. */
  readonly allowInsecureLoopback: boolean;
  readonly operatorDenylist: OperatorDenylist;
  /** Private ranges the operator lets tenants opt into. Alone it opens nothing. */
  readonly operatorAllowedPrivateRanges: readonly Cidr[];
  /** Private ranges this tenant opted into. Alone it opens nothing. */
  readonly tenantOptedInPrivateRanges: readonly Cidr[];
}

/**
 * Why a URL was refused. Stable strings: the API maps them to problem codes, and to the one tenant-facing
 * class `destination_refused` where naming the cause would let a tenant map the operator's network.
 */
export type AdmissionRefusalReason =
  | 'invalid_url'
  /** A port outside 1-65535 (port 0: the WHATWG parser already refuses larger ones, as `invalid_url`). */
  | 'invalid_port'
  | 'unsupported_scheme'
  | 'credentials_in_url'
  | 'insecure_scheme'
  | 'metadata_destination'
  | 'operator_denied'
  | 'loopback_destination'
  | 'reserved_destination'
  | 'private_destination'
  | 'unresolvable';

export type AdmissionResult =
  | {
      readonly ok: true;
      /** `scheme://host:port`, the port always explicit. */
      readonly origin: string;
      /** Every address the host resolved to, each checked, in canonical form: the only addresses to connect to. */
      readonly addresses: readonly string[];
    }
  | {
      readonly ok: false;
      readonly reason: AdmissionRefusalReason;
      /** `scheme://host:port` only (never path, query, userinfo or resolved addresses); null when unparsable. */
      readonly origin: string | null;
    };
