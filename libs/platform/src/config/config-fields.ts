import { isIP } from 'node:net';
import { z } from 'zod';
import { typeLabel } from './config-field.js';

// Builders for the kinds of environment variables our apps take. Env values are always strings, so every
// builder parses from a string; messages say what is expected and never echo the value.

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function nodeEnvField() {
  return typeLabel(
    z.enum(NODE_ENVS, { error: `must be one of ${NODE_ENVS.join(', ')}` }),
    NODE_ENVS.join(' | '),
  )
    .default('development')
    .describe('Runtime mode. `production` refuses unsafe settings.');
}

export function logLevelField() {
  return typeLabel(
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
    LOG_LEVELS.join(' | '),
  )
    .default('info')
    .describe('Minimum level of the JSON log lines written to stdout.');
}

/** A whole number in [min, max], written in decimal. */
export function integerField(options: { min: number; max: number }) {
  const problem = `must be a whole number from ${options.min} to ${options.max}`;
  return typeLabel(
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, problem)
      .transform(Number)
      .pipe(z.number().int().min(options.min, problem).max(options.max, problem)),
    'integer',
  );
}

export function portField() {
  return typeLabel(integerField({ min: 1, max: 65_535 }), 'port');
}

/** A host name or IP address to listen on or connect to. */
export function hostField() {
  return typeLabel(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or IP address'),
    'host',
  );
}

function urlField(protocols: readonly string[], label: string) {
  const problem = `must be a ${protocols.join(':// or ')}:// URL`;
  return typeLabel(
    z
      .string()
      .trim()
      .refine((value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      }, problem),
    label,
  );
}

export function httpUrlField() {
  return urlField(['http', 'https'], 'URL');
}

export function postgresUrlField() {
  return urlField(['postgresql', 'postgres'], 'Postgres URL');
}

export function redisUrlField() {
  return urlField(['redis', 'rediss'], 'Redis URL');
}

/** True for an IPv4/IPv6 address or a CIDR block with a prefix length valid for its family. */
export function isIpOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  if (address === undefined || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list of IP addresses or CIDR blocks; empty means none. */
export function ipListField() {
  return typeLabel(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      )
      .pipe(z.array(z.string().refine(isIpOrCidr, 'must list IP addresses or CIDR blocks, comma-separated'))),
    'comma-separated IPs/CIDRs',
  );
}

/** A short identifier (pool names, key ids). */
export function identifierField() {
  return typeLabel(
    z
      .string()
      .trim()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
        'must be 1-64 letters, digits, dots, dashes or underscores',
      ),
    'identifier',
  );
}

/** How long an app waits for in-flight work to finish on SIGTERM before it exits anyway. */
export function shutdownGraceField() {
  return integerField({ min: 0, max: 600_000 })
    .default(10_000)
    .describe('Milliseconds to drain in-flight work on SIGINT/SIGTERM before exiting anyway.');
}

/** The variables every app process takes. Spread into each app's schema. */
export function processConfigShape() {
  return { NODE_ENV: nodeEnvField(), LOG_LEVEL: logLevelField(), SHUTDOWN_GRACE_MS: shutdownGraceField() };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True when the URL points at this machine (allowed to be plain http even in production). */
export function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
  } catch {
    return false;
  }
}
