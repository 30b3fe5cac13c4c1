import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeyRing } from '@gatehouse/crypto';
import { loadOrCreateDevKeyRing } from './dev-key-ring';
import { loadOrCreateLocalSecrets } from './local-secrets';

describe('local development secrets', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-dev-keys-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates a key ring the API accepts, readable by the owner only, and reuses it', () => {
    const first = loadOrCreateDevKeyRing(join(dir, 'dev-keys'));
    expect(first.created).toBe(true);
    expect(parseKeyRing({ keys: first.keys, activeKeyId: first.activeKeyId }).ok).toBe(true);
    expect(statSync(first.file).mode & 0o077).toBe(0);
    expect(statSync(join(dir, 'dev-keys')).mode & 0o077).toBe(0);

    const second = loadOrCreateDevKeyRing(join(dir, 'dev-keys'));
    expect(second).toEqual({ ...first, created: false });
  });

  it('generates distinct role passwords once and keeps them across runs', () => {
    const file = join(dir, 'local-secrets.json');
    const first = loadOrCreateLocalSecrets(file);
    expect(new Set(Object.values(first)).size).toBe(3);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadOrCreateLocalSecrets(file)).toEqual(first);
  });
});
