import { GATEHOUSE_TOKEN_PATTERN, looksLikeGatehouseToken } from '@gatehouse/definitions';
import { TOKEN_SECRET_PATTERN } from './common.schema';

// @gatehouse/definitions is pure and may not import this lib, so it holds its own copy of the token pattern (it
// refuses token-shaped server names with it). The audit guard refuses text matching TOKEN_SECRET_PATTERN: if the
// copies drifted apart, a server name the decoder accepts could again make an audit event (and its write) fail.
describe('the Gatehouse secret pattern', () => {
  it('covers invitation secrets as well as API tokens', () => {
    for (const prefix of ['ghu_', 'gha_', 'ghw_', 'ghg_', 'ghi_']) {
      expect(TOKEN_SECRET_PATTERN.test(`${prefix}0123456789abcdefXYZ`)).toBe(true);
    }
    expect(TOKEN_SECRET_PATTERN.test('ghx_0123456789abcdefXYZ')).toBe(false);
  });
});

describe('the two names of the Gatehouse token pattern', () => {
  it('are the same regular expression', () => {
    expect(GATEHOUSE_TOKEN_PATTERN.source).toBe(TOKEN_SECRET_PATTERN.source);
    expect(GATEHOUSE_TOKEN_PATTERN.flags).toBe(TOKEN_SECRET_PATTERN.flags);
  });

  it.each([
    'ghu_AAAAAAAAAAAAAAAAAAAAAAAA',
    'x-gha_0123456789abcdefXYZ',
    'ghu_AAAAAAAAAAAAAAA',
    'github',
    'ghi_0123456789abcdefXYZ',
  ])('agree on %s', (text) => {
    expect(looksLikeGatehouseToken(text)).toBe(TOKEN_SECRET_PATTERN.test(text));
  });
});
