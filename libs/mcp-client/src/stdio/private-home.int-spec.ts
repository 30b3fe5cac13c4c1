import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { accountInPasswd } from '@gatehouse/platform';
import { createPrivateHome } from './private-home';

const asRoot = process.getuid?.() === 0;
const nobody = accountInPasswd(readFileSync('/etc/passwd', 'utf8'), 'nobody');

describe('a child’s private HOME', () => {
  it('is a new empty 0700 directory, removed by remove()', async () => {
    const home = await createPrivateHome(null);
    const seen = await stat(home.path);
    expect(seen.isDirectory()).toBe(true);
    expect(seen.mode & 0o777).toBe(0o700);
    await home.remove();
    await expect(stat(home.path)).rejects.toThrow();
    await expect(home.remove()).resolves.toBeUndefined();
  });

  (asRoot && nobody !== null ? it : it.skip)('belongs to the account the child runs as', async () => {
    const home = await createPrivateHome(nobody);
    try {
      expect(await stat(home.path)).toMatchObject({ uid: nobody?.uid, gid: nobody?.gid });
    } finally {
      await home.remove();
    }
  });
});
