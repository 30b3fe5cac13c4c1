import { valueFreeMessage } from './graphql-error-formatter';

describe('valueFreeMessage', () => {
  it('drops the value graphql-js quotes for a bad variable', () => {
    const message =
      'Variable "$input" got invalid value "ghu_secret" at "input.limit"; Int cannot represent non-integer value: "ghu_secret"';
    expect(valueFreeMessage(message)).toBe('Variable "$input" got an invalid value.');
  });

  it('drops the value of a literal that cannot be coerced', () => {
    expect(valueFreeMessage('Int cannot represent non-integer value: "abc"')).toBe(
      'Int cannot represent non-integer value.',
    );
  });

  it('keeps messages that carry no value', () => {
    const message = 'Cannot query field "password" on type "Caller".';
    expect(valueFreeMessage(message)).toBe(message);
  });
});
