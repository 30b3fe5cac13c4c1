import { isLinearTemplate, matchesTemplate } from './uri-template-matcher';

// The templates a caller's URI is matched against are an upstream's; the URI is the caller's. Only templates
// whose SDK expression is linear in the URI are matched (uri-template-matcher.ts); the SDK's matcher took about
// 130 s of the gateway's thread for x://{a}{b}{c}{d} against the 1,024-character URI below (measured here), so
// these cases would time out if such a template were still compiled.

const HOSTILE = `x://${'a'.repeat(1_024)}/`;

describe('matchesTemplate', () => {
  it.each([
    ['x://doc/{id}', 'x://doc/1'],
    ['repo://{owner}/{name}', 'repo://acme/gatehouse'],
    ['repo://{owner}/issues/{number}', 'repo://acme/issues/7'],
    ['file:///{+path}', 'file:///a/b/c.txt'],
    ['x://{a}{/b}', 'x://one/two'],
    ['search://all{?q,limit}', 'search://all?q=mcp&limit=5'],
  ])('matches %s as RFC 6570 does (%s)', (template, uri) => {
    expect(isLinearTemplate(template)).toBe(true);
    expect(matchesTemplate(template, uri)).toBe(true);
  });

  it('does not match what a linear template does not describe', () => {
    expect(matchesTemplate('repo://{owner}/{name}', 'repo://acme')).toBe(false);
    expect(matchesTemplate('x://doc/{id}', 'y://doc/1')).toBe(false);
    expect(matchesTemplate('repo://{owner}/{name}', `repo://${'a/'.repeat(5_000)}`)).toBe(false);
  });

  it.each([
    ['x://{a}{b}{c}{d}', HOSTILE],
    ['x://{a}{b}{c}', HOSTILE],
    ['x://{a}.{b}.{c}', `x://${'a.'.repeat(1_024)}/`],
    ['x://{name}{.ext}', `x://${'a.'.repeat(1_024)}/`],
    ['x://{a}-{b}-{c}-{d}', `x://${'a-'.repeat(512)}/`],
    ['x://{+a}/{b}/{c}', `x://${'a/'.repeat(1_024)}/`],
    ['x://{a}{?q}', `x://${'a?q=a'.repeat(256)}&`],
  ])(
    'never matches %s, whose expression backtracks without bound: a hostile URI costs nothing',
    (template, uri) => {
      expect(isLinearTemplate(template)).toBe(false);
      expect(matchesTemplate(template, uri)).toBe(false);
    },
  );

  it('matches nothing for a template the SDK cannot compile', () => {
    expect(matchesTemplate(`x://{${'a'.repeat(1_000_001)}}`, 'x://a')).toBe(false);
  });
});
