import { checkHeaderHelperAuthority, checkStdioAuthority } from '@gatehouse/activation';
import {
  admittedTransport,
  type AdmittedTransportDescription,
  type ProcessAuthority,
} from '@gatehouse/contracts';
import { materializedDefinitionOf, type OAuthSettings, type ResolvedEntry } from '@gatehouse/definitions';
import { admitUrl, checkEgressPolicy, type Resolver } from '@gatehouse/egress';
import type { AdmissionLog } from '../admission/admission-log';
import { egressPolicyFor } from '../admission/destination-admission';
import type { PoolCeiling } from '../auth/pool-config';
import { effectiveHostPolicy, type EffectiveHostPolicy } from '../host-policy/effective-host-policy';
import type { TenantHostPolicy } from '../host-policy/host-policy';

/** Why the asking pool will not carry this server (audited as the class; the detail stays in the operator log). */
export type LeaseTransportRefusal =
  | { readonly kind: 'destination_refused' }
  | { readonly kind: 'header_helper_refused'; readonly reason: string }
  /** `key`: the env name refused, with `env_key_not_allowed` (a name, never a value); else null. */
  | { readonly kind: 'stdio_refused'; readonly reason: string; readonly key: string | null }
  | { readonly kind: 'out_of_contract' };

export type LeaseTransport =
  | {
      readonly ok: true;
      readonly transport: AdmittedTransportDescription;
      /** The authority the holder re-checks at spawn; null when nothing is spawned (plain http). */
      readonly spawnRecheck: ProcessAuthority | null;
      /**
       * The definition's OAuth settings (http only): the lease carries an access token, added by the caller
       * (`withAccessToken`); never connected with the static headers alone.
       */
      readonly oauth: OAuthSettings | null;
    }
  | { readonly ok: false; readonly refusal: LeaseTransportRefusal };

export interface LeaseTransportContext {
  readonly pool: string;
  readonly ceiling: PoolCeiling;
  readonly tenantPolicy: TenantHostPolicy;
  /** The principal the lease is for: the value of a declared principal header. */
  readonly principalUserId: string | null;
  readonly resolver: Resolver;
  readonly log: AdmissionLog;
  readonly logContext: {
    readonly tenantId: string;
    readonly workspaceId: string;
    readonly serverName: string;
  };
}

/**
 * The admitted transport of one resolved entry on the asking pool, materialized: URL admission (the checked
 * addresses are what the holder connects to) or the stdio authority, then env and header VALUES, secrets
 * included. This is the one place they are read for a holder; nothing here is logged but classes and origins.
 */
export async function admitLeaseTransport(
  entry: ResolvedEntry,
  context: LeaseTransportContext,
): Promise<LeaseTransport> {
  const materialized = materializedDefinitionOf(entry);
  if (materialized === undefined)
    throw new Error(`resolved entry ${entry.name} carries no materialized definition`);
  const effective = effectiveHostPolicy(context.tenantPolicy, context.ceiling);
  const startupTimeoutMs = materialized.options.startupTimeoutMs ?? null;
  const { transport } = materialized;

  if (transport.kind === 'stdio') {
    const argv = [transport.command.value, ...transport.args.map((arg) => arg.value)];
    const authority = checkStdioAuthority(
      { argv, cwd: transport.cwd?.value ?? null, envKeys: transport.env.map((variable) => variable.key) },
      {
        stdioAllowed: context.ceiling.stdio,
        commands: effective.stdioCommands,
        ceiling: context.ceiling.commandCeiling,
        allowedRoots: effective.allowedRoots,
        envKeys: effective.childEnvKeys,
      },
    );
    if (!authority.ok) {
      const key = authority.reason === 'env_key_not_allowed' ? authority.key : null;
      return refuse({ kind: 'stdio_refused', reason: authority.reason, key });
    }
    const spawnRecheck = processAuthorityOf(effective.stdioCommands, context.ceiling, effective);
    return checked(
      {
        kind: 'stdio',
        command: transport.command.value,
        args: transport.args.map((arg) => arg.value),
        env: Object.fromEntries(transport.env.map((variable) => [variable.key, variable.value.value])),
        cwd: authority.cwd,
        authority: spawnRecheck,
        startupTimeoutMs,
        ...(materialized.options.elicitation ? { elicitation: true as const } : {}),
      },
      spawnRecheck,
    );
  }

  let helper: { argv: string[]; authority: ProcessAuthority } | null = null;
  if (transport.headersHelper !== null) {
    const authority = checkHeaderHelperAuthority(transport.headersHelper, {
      helpersAllowed: context.ceiling.headerHelpers,
      commands: effective.headerHelpers,
      ceiling: context.ceiling.commandCeiling,
    });
    if (!authority.ok) return refuse({ kind: 'header_helper_refused', reason: authority.reason });
    helper = {
      argv: [...transport.headersHelper],
      authority: processAuthorityOf(effective.headerHelpers, context.ceiling, effective),
    };
  }

  const policy = egressPolicyFor(context.tenantPolicy, context.ceiling);
  const base = { ...context.logContext, pool: context.pool };
  if (!checkEgressPolicy(policy).ok) {
    context.log.destinationRefused({ ...base, reason: 'operator_policy_invalid', origin: null });
    return refuse({ kind: 'destination_refused' });
  }
  const admission = await admitUrl(transport.url.value, policy, context.resolver);
  if (!admission.ok) {
    context.log.destinationRefused({ ...base, reason: admission.reason, origin: admission.origin });
    return refuse({ kind: 'destination_refused' });
  }
  const principalHeader =
    transport.principalHeader !== null && context.principalUserId !== null
      ? { name: transport.principalHeader, value: context.principalUserId }
      : null;
  return checked(
    {
      kind: 'http',
      url: transport.url.value,
      origin: admission.origin,
      addresses: [...admission.addresses],
      allowInsecureLoopback: effective.allowInsecureLoopback,
      privateRanges: [...effective.privateCidrs],
      headers: Object.fromEntries(transport.headers.map((header) => [header.key, header.value.value])),
      principalHeader,
      headersHelper: helper,
      startupTimeoutMs,
      ...(listsOrigin(effective.traceContextOrigins, admission.origin)
        ? { traceContext: true as const }
        : {}),
      ...(materialized.options.elicitation ? { elicitation: true as const } : {}),
    },
    helper?.authority ?? null,
    transport.oauth,
  );
}

/**
 * The admitted http transport with the access token the lease carries, held to the contract again (a token
 * outside it, say with a line break, is refused as out of contract rather than handed out).
 */
export function withAccessToken(
  admitted: Extract<LeaseTransport, { ok: true }>,
  token: { readonly accessToken: string; readonly expiresAt: number | null },
): LeaseTransport {
  if (admitted.transport.kind !== 'http') throw new Error('an access token is only for an http transport');
  return checked(
    {
      ...admitted.transport,
      oauth: {
        accessToken: token.accessToken,
        expiresAt: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
      },
    },
    admitted.spawnRecheck,
    admitted.oauth,
  );
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'https:': '443', 'http:': '80' };

/** Whether the tenant listed the admitted origin (`scheme://host:port`) for trace context (decision 0106). */
function listsOrigin(listed: readonly string[], admittedOrigin: string): boolean {
  const admitted = admittedOrigin.toLowerCase();
  return listed.some((origin) => {
    if (!URL.canParse(origin)) return false;
    const url = new URL(origin);
    return `${url.protocol}//${url.hostname}:${url.port || DEFAULT_PORTS[url.protocol]}` === admitted;
  });
}

function processAuthorityOf(
  commands: EffectiveHostPolicy['stdioCommands'],
  ceiling: PoolCeiling,
  effective: EffectiveHostPolicy,
): ProcessAuthority {
  return {
    commands: commands.map((prefix) => [...prefix]),
    ceiling: ceiling.commandCeiling.map((prefix) => [...prefix]),
    allowedRoots: [...effective.allowedRoots],
    // A header helper gets no definition env (only the spawner's baseline), so the list only matters for stdio;
    // it travels with both so the spawn-time check is the same check.
    envKeys: [...effective.childEnvKeys],
    runAs: effective.runAs === null ? null : { uid: effective.runAs.uid, gid: effective.runAs.gid },
  };
}

/**
 * Held to the strict contract the holder parses: a materialized value outside it (a header value with a line
 * break a variable put there, too many env keys) is refused here as a typed answer, never handed out.
 */
function checked(
  transport: AdmittedTransportDescription,
  spawnRecheck: ProcessAuthority | null,
  oauth: OAuthSettings | null = null,
): LeaseTransport {
  const parsed = admittedTransport.safeParse({ v: 1, transport });
  if (!parsed.success) return refuse({ kind: 'out_of_contract' });
  return { ok: true, transport: parsed.data.transport, spawnRecheck, oauth };
}

function refuse(refusal: LeaseTransportRefusal): LeaseTransport {
  return { ok: false, refusal };
}
