import { readAllowTools } from './allow-tools-reader';
import { readContentOrigin } from './content-origin-reader';
import { readElicitation } from './elicitation-reader';
import { readPrincipalHeader } from './principal-header-reader';
import { readStartupTimeoutMs } from './startup-timeout-reader';

describe('readStartupTimeoutMs', () => {
  it.each([1_000, 1_001, 60_000, 2_147_483_647])('accepts %p', (value) => {
    expect(readStartupTimeoutMs(value)).toEqual({ ok: true, value });
  });

  it.each([
    [999, 'out_of_range'],
    [0, 'out_of_range'],
    [-5000, 'out_of_range'],
    [2_147_483_648, 'out_of_range'],
    [1500.5, 'not_whole_number'],
    [Number.NaN, 'not_whole_number'],
    [Number.POSITIVE_INFINITY, 'not_whole_number'],
    ['5000', 'wrong_type'],
    [null, 'wrong_type'],
    [true, 'wrong_type'],
  ])('refuses %p as %s', (value, reason) => {
    expect(readStartupTimeoutMs(value)).toEqual({ ok: false, reason, path: [] });
  });

  it('reads absent as no bound of its own', () => {
    expect(readStartupTimeoutMs(undefined)).toEqual({ ok: true, value: undefined });
  });
});

describe('readContentOrigin', () => {
  it.each(['local', 'execution', 'external'])('accepts %s from the deployment plane', (word) => {
    expect(readContentOrigin(word, 'deployment')).toEqual({ ok: true, value: word });
  });

  it('refuses any declaration from the request plane, even a legal word', () => {
    expect(readContentOrigin('local', 'request')).toEqual({
      ok: false,
      reason: 'not_deployment_plane',
      path: [],
    });
  });

  it('lets the request plane leave it absent', () => {
    expect(readContentOrigin(undefined, 'request')).toEqual({ ok: true, value: undefined });
  });

  it('refuses a word outside the vocabulary rather than folding it', () => {
    expect(readContentOrigin('internal', 'deployment')).toEqual({
      ok: false,
      reason: 'not_in_vocabulary',
      path: [],
    });
    expect(readContentOrigin(1, 'deployment')).toEqual({ ok: false, reason: 'wrong_type', path: [] });
  });
});

describe('readPrincipalHeader', () => {
  it('accepts a token header name', () => {
    expect(readPrincipalHeader('X-Agent-Principal', ['X-Other'])).toEqual({
      ok: true,
      value: 'X-Agent-Principal',
    });
  });

  it.each([
    ['X Principal', 'invalid_header_name'],
    ['', 'invalid_header_name'],
    ['Authorization', 'protocol_header'],
    ['mcp-session-id', 'protocol_header'],
  ])('refuses %p as %s', (name, reason) => {
    expect(readPrincipalHeader(name, [])).toEqual({ ok: false, reason, path: [] });
  });

  it('refuses a collision with a static header in any case', () => {
    expect(readPrincipalHeader('X-Principal', ['x-principal'])).toEqual({
      ok: false,
      reason: 'header_collision',
      path: [],
    });
  });

  it('refuses a non-string', () => {
    expect(readPrincipalHeader(42, [])).toEqual({ ok: false, reason: 'wrong_type', path: [] });
  });
});

describe('readAllowTools', () => {
  it('keeps the list in order', () => {
    expect(readAllowTools(['b', 'a'])).toEqual({ ok: true, value: ['b', 'a'] });
    expect(readAllowTools([])).toEqual({ ok: true, value: [] });
    expect(readAllowTools(undefined)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['not a list', 'a,b', [], 'wrong_type'],
    ['a non-string member', ['a', 1], [1], 'wrong_type'],
    ['an empty name', ['a', ''], [1], 'empty_name'],
    ['a duplicate', ['a', 'b', 'a'], [2], 'duplicate_name'],
    ['__proto__', ['__proto__'], [0], 'forbidden_name'],
    ['a long name', ['x'.repeat(129)], [0], 'name_too_long'],
  ])('refuses %s', (_name, declared, path, reason) => {
    expect(readAllowTools(declared)).toEqual({ ok: false, reason, path });
  });
});

describe('readElicitation', () => {
  it('defaults off and reads only booleans', () => {
    expect(readElicitation(undefined)).toEqual({ ok: true, value: false });
    expect(readElicitation(true)).toEqual({ ok: true, value: true });
    expect(readElicitation('true')).toEqual({ ok: false, reason: 'wrong_type', path: [] });
    expect(readElicitation(1)).toEqual({ ok: false, reason: 'wrong_type', path: [] });
  });
});
