import { readToolFaces } from './tool-faces-reader';

describe('readToolFaces', () => {
  it('reads a full face as a copy', () => {
    const declared = {
      write_file: {
        family: 'file-write',
        pathTarget: { param: 'path' },
        renderHints: {
          displayName: 'Write file',
          summary: 'Writes a file',
          approvalCard: ['path', 'content'],
        },
        ruleFace: { keys: ['path'] },
      },
    };
    expect(readToolFaces(declared)).toEqual({ ok: true, value: declared });
  });

  it('reads absent and empty faces as nothing declared', () => {
    expect(readToolFaces(undefined)).toEqual({ ok: true, value: undefined });
    expect(readToolFaces({ a: {} })).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['not an object', 'x', [], 'wrong_type'],
    ['unknown face member', { t: { color: 'red' } }, ['t', 'color'], 'unknown_member'],
    ['bad family word', { t: { family: 'Write File' } }, ['t', 'family'], 'not_in_vocabulary'],
    ['pathTarget without param', { t: { pathTarget: {} } }, ['t', 'pathTarget', 'param'], 'wrong_type'],
    [
      'pathTarget extra member',
      { t: { pathTarget: { param: 'p', x: 1 } } },
      ['t', 'pathTarget', 'x'],
      'unknown_member',
    ],
    [
      'empty approval card',
      { t: { renderHints: { approvalCard: [] } } },
      ['t', 'renderHints', 'approvalCard'],
      'empty_list',
    ],
    [
      'duplicate approval card key',
      { t: { renderHints: { approvalCard: ['a', 'a'] } } },
      ['t', 'renderHints', 'approvalCard', 1],
      'duplicate_name',
    ],
    [
      'long display name',
      { t: { renderHints: { displayName: 'x'.repeat(129) } } },
      ['t', 'renderHints', 'displayName'],
      'too_long',
    ],
    [
      'ruleFace keys not a list',
      { t: { ruleFace: { keys: 'path' } } },
      ['t', 'ruleFace', 'keys'],
      'wrong_type',
    ],
    ['empty tool name', { '': { family: 'x' } }, [''], 'empty_name'],
  ])('refuses %s', (_name, declared, path, reason) => {
    expect(readToolFaces(declared)).toEqual({ ok: false, reason, path });
  });
});
