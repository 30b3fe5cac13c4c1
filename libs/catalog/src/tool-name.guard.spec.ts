import { readAllowTools } from './allow-tools-reader';
import { readToolAxes } from './tool-axes-reader';
import { readToolFaces } from './tool-faces-reader';
import { toolNameProblem } from './tool-name.guard';

describe('toolNameProblem (the remote tool names an option may name)', () => {
  it.each(['search', 'read_file', 'files.read', 'get-issue', 'A9', 't'.repeat(128)])('accepts %s', (name) => {
    expect(toolNameProblem(name)).toBeNull();
  });

  it.each([
    ['empty', '', 'empty_name'],
    ['__proto__', '__proto__', 'forbidden_name'],
    ['129 characters', 't'.repeat(129), 'name_too_long'],
    ['a space', 'read file', 'invalid_name_character'],
    ['a slash', 'repo/read', 'invalid_name_character'],
    ['a colon', 'fs:read', 'invalid_name_character'],
    ['a NUL', 'a\u0000b', 'invalid_name_character'],
    ['a zero-width space', 'read\u200bfile', 'invalid_name_character'],
    ['a non-ASCII letter', 'lécture', 'invalid_name_character'],
    ['a lone surrogate', 'a\ud800', 'invalid_name_character'],
  ])('refuses %s', (_label, name, reason) => {
    expect(toolNameProblem(name)).toBe(reason);
  });

  it('is what allowTools, toolAxes and toolFaces keys are held to', () => {
    expect(readAllowTools(['ok', 'not ok'])).toEqual({
      ok: false,
      reason: 'invalid_name_character',
      path: [1],
    });
    expect(readToolAxes({ 'a/b': { effect: 'read' } })).toEqual({
      ok: false,
      reason: 'invalid_name_character',
      path: ['a/b'],
    });
    expect(readToolFaces({ 'a b': { family: 'shell' } })).toEqual({
      ok: false,
      reason: 'invalid_name_character',
      path: ['a b'],
    });
  });

  it('leaves the property names a face refers to at their bounds only (schemas may name members anything)', () => {
    const read = readToolFaces({
      write: { pathTarget: { param: 'file path' }, ruleFace: { keys: ['$mode'] } },
    });
    expect(read.ok).toBe(true);
  });
});
