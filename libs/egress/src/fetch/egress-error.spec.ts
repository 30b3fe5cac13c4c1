import { EgressError, isEgressError } from './egress-error';

describe('EgressError', () => {
  it('names its reason and origin and nothing else', () => {
    const error = new EgressError('redirect_refused', 'https://api.example:443');
    expect(error.message).toBe('egress redirect_refused: https://api.example:443');
    expect(error.name).toBe('EgressError');
    expect(error.cause).toBeUndefined();
    expect(isEgressError(error)).toBe(true);
    expect(isEgressError(new Error('x'))).toBe(false);
    expect(new EgressError('invalid_url', null).message).toBe('egress invalid_url');
  });
});
