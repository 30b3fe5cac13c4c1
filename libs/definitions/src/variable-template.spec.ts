import { parseTemplate } from './variable-template';

describe('parseTemplate', () => {
  it('reads literal text as one part', () => {
    expect(parseTemplate('npx')).toBe('npx');
    expect(parseTemplate('$HOME and $ alone')).toBe('$HOME and $ alone');
  });

  it('reads references with and without defaults', () => {
    expect(parseTemplate('Bearer ${TOKEN}')).toEqual([
      { kind: 'text', text: 'Bearer ' },
      { kind: 'variable', name: 'TOKEN', fallback: undefined },
    ]);
    expect(parseTemplate('${A:-x:y}/${B:-}${C}')).toEqual([
      { kind: 'variable', name: 'A', fallback: 'x:y' },
      { kind: 'text', text: '/' },
      { kind: 'variable', name: 'B', fallback: '' },
      { kind: 'variable', name: 'C', fallback: undefined },
    ]);
  });

  it.each(['${', '${}', '${1A}', '${A B}', '${A:default}', '${A-x}', 'x ${A', '${A:-${B}}', '${-}'])(
    'refuses the malformed reference %p',
    (text) => {
      expect(parseTemplate(text)).toBeNull();
    },
  );

  it('is linear on many references', () => {
    const text = '${A}'.repeat(200_000);
    expect(parseTemplate(text)).toHaveLength(200_000);
  });
});
