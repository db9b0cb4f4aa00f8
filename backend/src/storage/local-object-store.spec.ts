import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStore, PARTIAL_DIR } from './local-object-store';
import { objectStoreContract } from '../../test/utils/object-store.contract';
import { createObjectStore } from './object-store.factory';
import { loadConfig } from '../config/configuration';

describe('LocalObjectStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'gs-objects-'));
  const store = new LocalObjectStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  objectStoreContract(() => ({
    store,
    partSize: 5 * 1024 * 1024,
    leftovers: async () => {
      try {
        return readdirSync(join(root, PARTIAL_DIR));
      } catch {
        return [];
      }
    },
  }));

  it('keeps objects as files under the root, a key segment per folder', async () => {
    await store.put('users/7/images/x.png', Buffer.from('png'));
    expect(readdirSync(join(root, 'users', '7', 'images'))).toEqual(['x.png']);
  });

  it('has no signed URLs: the API streams local files itself', async () => {
    expect(await store.signedUrl()).toBeNull();
  });

  it('is the driver chosen when STORAGE_DRIVER is unset', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gs-config-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(config.storage.driver).toBe('local');
      const chosen = await createObjectStore(config);
      expect(chosen).toBeInstanceOf(LocalObjectStore);
      expect((chosen as LocalObjectStore).root).toBe(config.filesDir);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
