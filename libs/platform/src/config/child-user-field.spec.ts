import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { accountInPasswd, childUserField, readChildUser } from './child-user-field.js';
import { resolveFieldMeta } from './config-field.js';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'toor:x:0:1000::/:/bin/sh',
  'broken:x:abc:1::/:/bin/sh',
].join('\n');
const passwd = () => PASSWD;

describe('CHILD_USER', () => {
  it('looks an account name up in passwd', () => {
    expect(accountInPasswd(PASSWD, 'nobody')).toEqual({ uid: 65534, gid: 65534 });
    expect(readChildUser('daemon', passwd)).toEqual({ ok: true, user: { uid: 1, gid: 1 } });
  });

  it('takes uid:gid and self as written', () => {
    expect(readChildUser('1000:1000', passwd)).toEqual({ ok: true, user: { uid: 1000, gid: 1000 } });
    expect(readChildUser('self', passwd)).toEqual({ ok: true, user: 'self' });
  });

  it('never resolves to root, whatever the spelling', () => {
    for (const spelling of ['root', 'toor', '0:0', '0:1000', '1000:0']) {
      expect(readChildUser(spelling, passwd)).toEqual({
        ok: false,
        message: 'must not be uid 0 or gid 0',
      });
    }
  });

  it('refuses unknown accounts, malformed entries and other spellings', () => {
    expect(readChildUser('ghost', passwd)).toEqual({
      ok: false,
      message: 'names no account of this machine',
    });
    expect(readChildUser('broken', passwd)).toEqual({
      ok: false,
      message: 'names no account of this machine',
    });
    for (const spelling of ['', 'Nobody', 'a b', '../x', '1:', ':1', 'x'.repeat(40), '99999999999:1']) {
      expect(readChildUser(spelling, passwd).ok).toBe(false);
    }
  });

  it('defaults to the nobody account, looked up like a configured one, and documents the default', () => {
    const schema = z.object({ CHILD_USER: childUserField() });
    const parsed = schema.parse({});
    expect(parsed.CHILD_USER).toEqual(accountInPasswd(readFileSync('/etc/passwd', 'utf8'), 'nobody'));
    expect(resolveFieldMeta(schema.shape.CHILD_USER).defaultValue).toBe('nobody');
  });
});
