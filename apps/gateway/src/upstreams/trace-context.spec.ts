import { traceContextOf, traceHeadersOf } from './trace-context';

// The W3C trace-context grammar the gateway holds a caller's headers to before they go on an upstream call
// (decision 0106): what holds is passed as it came, what does not is dropped, never repaired.

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceContextOf', () => {
  it('passes a version-00 traceparent and a valid tracestate', () => {
    expect(
      traceContextOf({ traceparent: PARENT, tracestate: 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7' }),
    ).toEqual({
      traceparent: PARENT,
      tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    });
  });

  it('reads nothing without a traceparent, or with two', () => {
    expect(traceContextOf(undefined)).toBeNull();
    expect(traceContextOf({ tracestate: 'congo=t61rcWkgMzE' })).toBeNull();
    expect(traceContextOf({ traceparent: [PARENT, PARENT] })).toBeNull();
  });

  it('joins several tracestate headers in order, and accepts a multi-tenant key', () => {
    expect(traceContextOf({ traceparent: PARENT, tracestate: ['a=1', 'tenant@vendor=2'] })).toEqual({
      traceparent: PARENT,
      tracestate: 'a=1,tenant@vendor=2',
    });
  });

  it.each([
    ['longer than 512 characters', `a=${'x'.repeat(511)}`],
    ['more than 32 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
    ['a repeated key', 'a=1,a=2'],
    ['an uppercase key', 'Congo=1'],
    ['a member without a value', 'a='],
    ['a value with an equals sign', 'a=b=c'],
    ['a member without a key', '=v'],
  ])('drops a tracestate with %s and keeps the traceparent', (_case, tracestate) => {
    expect(traceContextOf({ traceparent: PARENT, tracestate })).toEqual({ traceparent: PARENT });
  });
});

describe('traceHeadersOf', () => {
  it('sends nothing for no context, and only the names it holds', () => {
    expect(traceHeadersOf(null)).toBeUndefined();
    expect(traceHeadersOf({ traceparent: PARENT })).toEqual({ traceparent: PARENT });
  });
});
