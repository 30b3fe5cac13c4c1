import { parseHeaderHelperOutput } from './header-helper-output-parser';

describe('parseHeaderHelperOutput', () => {
  it('accepts a JSON object of string values, the credential slot included', () => {
    expect(parseHeaderHelperOutput('{"Authorization":"Bearer t","X-Tenant":"acme"}\n')).toEqual({
      ok: true,
      headers: { Authorization: 'Bearer t', 'X-Tenant': 'acme' },
    });
    expect(parseHeaderHelperOutput('{}')).toEqual({ ok: true, headers: {} });
  });

  it.each([
    ['not JSON', 'Authorization: Bearer t', 'not_json'],
    ['two documents', '{"a":"1"}{"b":"2"}', 'not_json'],
    ['an array', '[["Authorization","t"]]', 'not_an_object'],
    ['a string', '"Bearer t"', 'not_an_object'],
    ['null', 'null', 'not_an_object'],
    [
      '33 headers',
      JSON.stringify(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`X-H${i}`, 'v']))),
      'too_many_headers',
    ],
    ['a name with a space', '{"X Token":"t"}', 'invalid_header_name'],
    ['one name in two cases', '{"X-Token":"a","x-token":"b"}', 'duplicate_header'],
    ['Host', '{"Host":"evil.example"}', 'owned_header'],
    ['Mcp-Session-Id', '{"mcp-session-id":"s"}', 'owned_header'],
    ['traceparent', '{"traceparent":"00-abc"}', 'owned_header'],
    ['a number value', '{"X-Token":1}', 'invalid_header_value'],
    ['a nested object', '{"X-Token":{"v":"t"}}', 'invalid_header_value'],
    ['a header split by a line break', '{"X-Token":"t\\r\\nHost: evil"}', 'invalid_header_value'],
    ['an oversized value', JSON.stringify({ 'X-Token': 'x'.repeat(8193) }), 'invalid_header_value'],
  ])('refuses %s', (_label, text, reason) => {
    expect(parseHeaderHelperOutput(text)).toEqual({ ok: false, reason });
  });
});
