import { parseTemplate } from './variable-template';

describe('parseTemplate', () => {
  it('reads literal text as one part', () => {
    expect(parseTemplate('npx')).toEqual({ ok: true, template: [{ kind: 'text', text: 'npx' }] });
    expect(parseTemplate('$HOME and $ alone')).toEqual({
      ok: true,
      template: [{ kind: 'text', text: '$HOME and $ alone' }],
    });
  });

  it('reads references with and without defaults', () => {
    expect(parseTemplate('Bearer ${TOKEN}')).toEqual({
      ok: true,
      template: [
        { kind: 'text', text: 'Bearer ' },
        { kind: 'variable', name: 'TOKEN', fallback: undefined },
      ],
    });
    expect(parseTemplate('${A:-x:y}/${B:-}${C}')).toEqual({
      ok: true,
      template: [
        { kind: 'variable', name: 'A', fallback: 'x:y' },
        { kind: 'text', text: '/' },
        { kind: 'variable', name: 'B', fallback: '' },
        { kind: 'variable', name: 'C', fallback: undefined },
      ],
    });
  });

  it.each(['${', '${}', '${1A}', '${A B}', '${A:default}', '${A-x}', 'x ${A', '${A:-${B}}', '${-}'])(
    'refuses the malformed reference %p',
    (text) => {
      expect(parseTemplate(text)).toEqual({ ok: false });
    },
  );

  it('is linear on many references', () => {
    const text = '${A}'.repeat(200_000);
    const parsed = parseTemplate(text);
    expect(parsed.ok && parsed.template.length).toBe(200_000);
  });
});
