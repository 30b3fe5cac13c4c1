import { createHash } from 'node:crypto';

/**
 * Names a host shows for a server's tools, prompts and resources: `mcp__<server>__<remote>`, within
 * {@link MCP_NAME_BUDGET} characters of `[A-Za-z0-9_-]` (the tool-name format model APIs accept). Minting is a
 * pure function of the raw names, so a listing names the same tool the same way in every process and on every
 * refresh; collisions are resolved by {@link mintNames}. Decision 0047.
 */
export const MCP_NAME_PREFIX = 'mcp__';
export const MCP_NAME_SEPARATOR = '__';
export const MCP_NAME_BUDGET = 64;
export const MCP_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** The server segment's share of the budget: longer server names are shortened with a hash of the raw name. */
export const MAX_SERVER_SEGMENT_LENGTH = 24;

const SERVER_HASH_LENGTH = 8;
const NAME_HASH_LENGTH = 12;
const ALLOWED = /^[A-Za-z0-9_-]$/;

/** Hex sha256 of the raw text as UTF-16 code units, so two different strings never hash as one encoding. */
function digest(text: string, length: number): string {
  return createHash('sha256').update(text, 'utf16le').digest('hex').slice(0, length);
}

/** Every code point outside `[A-Za-z0-9_-]` (a lone surrogate included) becomes one `_`. */
export function sanitizeSegment(raw: string): string {
  let out = '';
  for (const ch of raw) out += ALLOWED.test(ch) ? ch : '_';
  return out.length === 0 ? '_' : out;
}

/** The server segment: the sanitized name, or its first characters, `_` and a hash of the raw name. */
export function serverSegment(server: string): string {
  const clean = sanitizeSegment(server);
  if (clean.length <= MAX_SERVER_SEGMENT_LENGTH) return clean;
  const keep = MAX_SERVER_SEGMENT_LENGTH - SERVER_HASH_LENGTH - 1;
  return `${clean.slice(0, keep)}_${digest(server, SERVER_HASH_LENGTH)}`;
}

export interface BaseName {
  readonly name: string;
  /** The name is `mcp__<server>__<remote>` with both raw names unchanged (nothing sanitized or shortened). */
  readonly exact: boolean;
}

function prefixOf(server: string): { prefix: string; room: number } {
  const prefix = `${MCP_NAME_PREFIX}${serverSegment(server)}${MCP_NAME_SEPARATOR}`;
  return { prefix, room: MCP_NAME_BUDGET - prefix.length };
}

function hashedTail(server: string, remote: string, clean: string, room: number): string {
  const keep = Math.min(clean.length, room - NAME_HASH_LENGTH - 1);
  return `${clean.slice(0, keep)}_${digest(`${server}\u0000${remote}`, NAME_HASH_LENGTH)}`;
}

/**
 * The name a (server, remote name) pair gets when nothing else claims it: sanitized, and when too long for the
 * budget, its first characters, `_` and a hash of both raw names.
 */
export function baseName(server: string, remote: string): BaseName {
  const { prefix, room } = prefixOf(server);
  const clean = sanitizeSegment(remote);
  if (clean.length <= room) {
    return {
      name: `${prefix}${clean}`,
      exact: prefix === `${MCP_NAME_PREFIX}${server}__` && clean === remote,
    };
  }
  return { name: `${prefix}${hashedTail(server, remote, clean, room)}`, exact: false };
}

/** The name a collision's loser gets: always hash-suffixed, so it differs from every unhashed name. */
export function hashedName(server: string, remote: string): string {
  const { prefix, room } = prefixOf(server);
  return `${prefix}${hashedTail(server, remote, sanitizeSegment(remote), room)}`;
}

export interface NameRequest {
  readonly server: string;
  readonly remote: string;
}

/** Two requests minted the same name: the loser was renamed (to its hashed name) or, if that too was taken, dropped. */
export interface NameCollision {
  readonly server: string;
  readonly remote: string;
  readonly winner: NameRequest;
  readonly resolution: 'renamed' | 'dropped';
  /** The loser's name when renamed. */
  readonly name?: string;
}

export interface MintedNames {
  /** Aligned with the requests: the minted name, or null for a dropped loser. */
  readonly names: readonly (string | null)[];
  readonly collisions: readonly NameCollision[];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRequests(a: NameRequest, b: NameRequest): number {
  return compareText(a.server, b.server) || compareText(a.remote, b.remote);
}

/**
 * Mints one name per request, collision-free. Requests that mint the same base name are ranked: an exact name
 * first (what the server said, unchanged, beats a rewriting), then by raw server name and raw remote name in
 * code-unit order. The first keeps the base name; each other is renamed to its hashed name, or dropped when
 * even that is taken (a hash collision). Every loser is reported. The answer does not depend on the order of
 * the requests. Requests must be distinct (server, remote) pairs.
 */
export function mintNames(requests: readonly NameRequest[]): MintedNames {
  const groups = new Map<string, { index: number; exact: boolean }[]>();
  requests.forEach((request, index) => {
    const base = baseName(request.server, request.remote);
    const group = groups.get(base.name);
    if (group) group.push({ index, exact: base.exact });
    else groups.set(base.name, [{ index, exact: base.exact }]);
  });
  const names: (string | null)[] = requests.map(() => null);
  const taken = new Set<string>();
  const losers: { index: number; winner: number }[] = [];
  for (const [name, group] of groups) {
    group.sort((a, b) => {
      if (a.exact !== b.exact) return a.exact ? -1 : 1;
      return compareRequests(requests[a.index] as NameRequest, requests[b.index] as NameRequest);
    });
    const [first, ...rest] = group;
    if (!first) continue;
    names[first.index] = name;
    taken.add(name);
    for (const loser of rest) losers.push({ index: loser.index, winner: first.index });
  }
  losers.sort((a, b) => compareRequests(requests[a.index] as NameRequest, requests[b.index] as NameRequest));
  const collisions: NameCollision[] = [];
  for (const loser of losers) {
    const request = requests[loser.index] as NameRequest;
    const winner = requests[loser.winner] as NameRequest;
    const renamed = hashedName(request.server, request.remote);
    const at = { server: request.server, remote: request.remote, winner: { ...winner } };
    if (taken.has(renamed)) {
      collisions.push({ ...at, resolution: 'dropped' });
      continue;
    }
    taken.add(renamed);
    names[loser.index] = renamed;
    collisions.push({ ...at, resolution: 'renamed', name: renamed });
  }
  return { names, collisions };
}
