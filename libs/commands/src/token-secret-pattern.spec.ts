import { GATEHOUSE_TOKEN_PATTERN, looksLikeGatehouseToken } from '@gatehouse/definitions';
import { TOKEN_SECRET_PATTERN } from './common.schemas';

// @gatehouse/definitions is pure and may not import this lib, so it holds its own copy of the token pattern (it
// refuses token-shaped server names with it). The audit guard refuses text matching TOKEN_SECRET_PATTERN: if the
// copies drifted apart, a server name the decoder accepts could again make an audit event (and its write) fail.
describe('the two copies of the Gatehouse token pattern', () => {
  it('are the same regular expression', () => {
    expect(GATEHOUSE_TOKEN_PATTERN.source).toBe(TOKEN_SECRET_PATTERN.source);
    expect(GATEHOUSE_TOKEN_PATTERN.flags).toBe(TOKEN_SECRET_PATTERN.flags);
  });

  it.each(['ghu_AAAAAAAAAAAAAAAAAAAAAAAA', 'x-gha_0123456789abcdefXYZ', 'ghu_AAAAAAAAAAAAAAA', 'github'])(
    'agree on %s',
    (text) => {
      expect(looksLikeGatehouseToken(text)).toBe(TOKEN_SECRET_PATTERN.test(text));
    },
  );
});
