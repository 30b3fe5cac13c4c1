import { idField, listField, safeReturnPath, textField } from './form-data';

describe('form fields', () => {
  it('reads text, lists and ids defensively', () => {
    const form = new FormData();
    form.set('name', '  platform  ');
    form.append('scopes', 'catalog:read');
    form.append('scopes', 'gateway:use');
    form.set('id', '3b4a863e-685e-43b5-b8cf-8575db249bff');
    form.set('bad', '../../v1/members');
    expect(textField(form, 'name')).toBe('platform');
    expect(textField(form, 'missing')).toBe('');
    expect(listField(form, 'scopes')).toEqual(['catalog:read', 'gateway:use']);
    expect(idField(form, 'id')).toBe('3b4a863e-685e-43b5-b8cf-8575db249bff');
    expect(idField(form, 'bad')).toBeUndefined();
  });

  it('returns only to paths on this site after sign-in', () => {
    expect(safeReturnPath('/workspaces?cursor=abc')).toBe('/workspaces?cursor=abc');
    expect(safeReturnPath('//evil.example')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath('https://evil.example')).toBe('/');
    expect(safeReturnPath('/sign-in')).toBe('/');
    expect(safeReturnPath('')).toBe('/');
  });
});
