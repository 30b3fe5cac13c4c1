import { performance } from 'node:perf_hooks';
import { claimsApprovalOrTrust } from './approval-claim.guard';
import { canonicalDefinitionUrl } from './canonical-url';
import { decodeServerEntry } from './definition-decoder';
import { resolveDefinitions } from './definitions-resolver';
import { MAX_DOCUMENT_DEPTH } from './document-limits.guard';
import { maskArgs, maskText, maskUrl } from './literal-masker';
import { projectDefinition } from './redacted-projection';
import { isCredentialShapedLiteral, isCredentialShapedName } from './secret-shape';
import { securityIdentityOf } from './security-identity';
import { scanStrictJson } from './strict-json-scanner';
import type { SourceRef } from './tier';
import { materializeDefinition, type VariableValues } from './variable-materializer';

// Every function on the resolve path is linear in its input: a member who may write a user source must not be
// able to stall the API with one long value. Each case grows a hostile input tenfold (10^5 -> 10^6 characters)
// and compares the time per character (a ratio, never a time): quadratic code grows near 10; linear code stays
// near 1, up to about 4 where a tenfold input moves its garbage from the young generation to the old one.
// The functions are warmed first, on ordinary inputs: some quadratic behaviour (building a string one character
// at a time) only shows once the optimizing compiler has taken the function over.

// Timing ratios depend on the machine's load, so this is not part of `npm test`: `npm run test:timing` runs it on
// demand. A run disturbed throughout is tried again; a real regression fails every try.
jest.retryTimes(2);

const SMALL = 100_000;
const LARGE = 1_000_000;
/** Time per character at LARGE over time per character at SMALL: linear ~1 (up to ~4 with GC), quadratic ~10. */
const MAX_GROWTH = 6;
const PAIRS = 5;

const source: SourceRef = { tier: 'user', origin: 'user:u1' };
const fingerprintKey = { id: 'k1', bytes: new Uint8Array(32).fill(7) };

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/**
 * The least, over interleaved pairs, of (time per character at LARGE) / (time per character at SMALL, the slower of
 * two runs). Pairs measured back to back see the same load; the least pair is the one other processes disturbed
 * least (a busy neighbour can only slow a run, and a slowed LARGE run is what would look like a regression).
 * Quadratic code stays near 10 in every pair, so this leans against false alarms without hiding one.
 */
function growth(make: (n: number) => () => void): number {
  const small = make(SMALL);
  const large = make(LARGE);
  small();
  large();
  let least = Number.POSITIVE_INFINITY;
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const perCharSmall = Math.max(timed(small), timed(small)) / SMALL;
    const perCharLarge = timed(large) / LARGE;
    least = Math.min(least, perCharLarge / perCharSmall);
  }
  return least;
}

/** The whole describe path of one entry (what resolveDefinitions does to a winner), on a value of any size. */
function describeEntry(raw: unknown, variables: VariableValues = {}): void {
  const decoded = decodeServerEntry('srv', raw, source);
  if (decoded.kind !== 'valid') return;
  const materialized = materializeDefinition(decoded.definition, variables);
  const projection = projectDefinition(materialized.definition);
  securityIdentityOf(materialized.definition, source, projection);
}

const ordinary = {
  command: 'npx',
  args: ['-y', '@acme/server', '--api-key', '${ACME_API_KEY}', 'token=abc', 'Bearer x'],
  env: { GITHUB_TOKEN: '${GITHUB_PAT}', NODE_OPTIONS: '--max-old-space-size=512', LogLevel: 'info' },
  cwd: '${HOME:-/home/agent}/servers',
};
const ordinaryHttp = {
  type: 'http',
  url: 'https://mcp.example.com/v1/${API_TOKEN}/mcp?apiKey=x&a=1',
  headers: { 'X-Team': 'a' },
};

beforeAll(() => {
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < 200; i += 1) servers[`s-${i}`] = i % 2 === 0 ? ordinary : ordinaryHttp;
  const document = JSON.stringify({ mcpServers: servers });
  for (let round = 0; round < 20; round += 1) {
    resolveDefinitions({
      sources: [{ tier: 'user', origin: 'user:u1', readability: 'readable', document }],
      variables: { tenant: { API_TOKEN: 't', GITHUB_PAT: 'p' } },
      overlays: [],
      view: { kind: 'principal', userId: 'u1' },
      fingerprintKey,
    });
    for (let i = 0; i < 500; i += 1) {
      isCredentialShapedName(`SOME_NAME_${i}`);
      claimsApprovalOrTrust(`someKey${i}`);
    }
  }
});

describe('the resolve path is linear in its input (10^5 -> 10^6 characters)', () => {
  const a = (n: number) => 'A'.repeat(n);
  it.each<[string, (n: number) => () => void]>([
    [
      'a long env key (its credential shape)',
      (n) => () => describeEntry({ command: 'x', env: { [a(n)]: 'v' } }),
    ],
    [
      'a long camelCase name judged for its shape',
      (n) => () => isCredentialShapedName(`${'a'.repeat(n)}Bc${'d'.repeat(n)}`),
    ],
    ['a long key judged for approval claims', (n) => () => claimsApprovalOrTrust(`a-${'b'.repeat(n)}`)],
    ['a long credential-shaped literal', (n) => () => isCredentialShapedLiteral(`${'aB3.'.repeat(n / 4)}`)],
    [
      'a URL whose text holds the secret sentinel',
      (n) => {
        const url = `https://h.example/ghsecret${'x'.repeat(n)}/\${API_TOKEN}`;
        return () => describeEntry({ type: 'http', url }, { tenant: { API_TOKEN: 't' } });
      },
    ],
    [
      'a URL with a long query parameter name',
      (n) => {
        const url = `https://h.example/p?${a(n)}=1`;
        return () => describeEntry({ type: 'http', url });
      },
    ],
    [
      'a URL with many secret stretches in its path',
      (n) => {
        const url = `https://h.example/${'${API_TOKEN}/'.repeat(n / 13)}`;
        return () => describeEntry({ type: 'http', url }, { tenant: { API_TOKEN: 't' } });
      },
    ],
    [
      'a long URL path of dot segments',
      (n) => () => describeEntry({ type: 'http', url: `https://h.example${'/..'.repeat(n / 3)}` }),
    ],
    [
      'a long URL host',
      (n) => () => describeEntry({ type: 'http', url: `https://${'a.'.repeat(n / 2)}com/` }),
    ],
    [
      'an argument of `key=` words',
      (n) => () => describeEntry({ command: 'x', args: ['token='.repeat(n / 6)] }),
    ],
    [
      'an argument of `key:` words',
      (n) => () => describeEntry({ command: 'x', args: ['auth: '.repeat(n / 6)] }),
    ],
    ['an argument of quotes', (n) => () => describeEntry({ command: 'x', args: ["'".repeat(n)] })],
    [
      'many short arguments',
      (n) => () => describeEntry({ command: 'x', args: Array.from({ length: n / 10 }, () => '--token') }),
    ],
    [
      'many env keys',
      (n) => () =>
        describeEntry({
          command: 'x',
          env: Object.fromEntries(Array.from({ length: n / 10 }, (_, i) => [`K${i}`, 'v'])),
        }),
    ],
    [
      'many variable references',
      (n) => () =>
        describeEntry({ command: 'x', args: ['${A_TOKEN}'.repeat(n / 10)] }, { tenant: { A_TOKEN: 'v' } }),
    ],
    ['a long cwd', (n) => () => describeEntry({ command: 'x', cwd: '/a'.repeat(n / 2) })],
    ['masking free text', (n) => () => maskText('x=1 Bearer '.repeat(n / 11))],
    ['masking a URL', (n) => () => maskUrl(`https://u@h/${'a/'.repeat(n / 4)}?${'k=v&'.repeat(n / 8)}`)],
    ['masking an argv', (n) => () => maskArgs(Array.from({ length: n / 8 }, () => '--token'))],
    [
      'canonicalizing a URL with secrets',
      (n) => {
        const value = `https://h.example/${'ghsecret'.repeat(n / 8)}/s`;
        const url = {
          value,
          stretches: [
            {
              start: value.length - 1,
              end: value.length,
              variable: 'S_TOKEN',
              from: 'tenant' as const,
              secret: true,
            },
          ],
        };
        return () => canonicalDefinitionUrl(url);
      },
    ],
    [
      'scanning JSON for repeated keys',
      (n) => {
        const text = `{"mcpServers":[${Array.from({ length: n / 24 }, () => '{"k":1,"l":["\\\\"],"m":{}}').join(',')}]}`;
        return () => scanStrictJson(text, MAX_DOCUMENT_DEPTH);
      },
    ],
  ])('%s', (_name, make) => {
    expect(growth(make)).toBeLessThan(MAX_GROWTH);
  });
});
