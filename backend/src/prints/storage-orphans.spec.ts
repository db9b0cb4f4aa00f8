import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/configuration';
import type { ObjectInfo, ObjectStore } from '../storage/object-store';
import type { StorageService } from '../storage/storage.service';
import { StorageOrphansService } from './storage-orphans.service';

/**
 * The sweep's walk over the store: how much of it one run judges, from where, and what it
 * keeps. Its collaborators are stand-ins: a store listing keys in order (the drivers' own
 * `list` with `startAfter` is in the object-store contract) and a database that knows one
 * image's key. test/prints-s3.e2e-spec.ts runs the sweep against PostgreSQL and a bucket.
 */
describe('StorageOrphansService', () => {
  const HOUR = 3_600_000;
  const now = new Date('2026-11-29T12:00:00Z');
  const old = new Date(now.getTime() - 2 * HOUR);
  const kept = 'users/b/images/kept.png';
  const young = 'users/c/images/young.png';
  const orphans = ['users/a/images/1.png', 'users/a/images/2.png', 'users/b/images/3.png', 'users/c/images/4.png', 'users/d/images/5.png'];
  const foreign = ['elsewhere/x', 'users/d/notes.txt'];

  function setup(orphanSweepObjects: number) {
    const objects = new Map<string, Date>([...orphans, kept, ...foreign].map((k) => [k, old]));
    objects.set(young, now);
    const listed: string[] = [];
    const store = {
      async *list(prefix: string, startAfter = ''): AsyncIterable<ObjectInfo> {
        for (const key of [...objects.keys()].sort()) {
          if (!key.startsWith(prefix) || key <= startAfter) continue;
          listed.push(key);
          yield { key, size: 1, modified: objects.get(key)! };
        }
      },
    } as ObjectStore;
    const storage = { store, delete: async (k: string) => void objects.delete(k), removeStaleWrites: async () => 0 } as unknown as StorageService;
    const db = {
      query: async (sql: string, [keys]: [string[]]) =>
        sql.includes('FROM images') ? keys.filter((k) => k === kept).map((k) => ({ file_key: k, preview_key: null })) : [],
    } as unknown as DataSource;
    const config = { dataDir: '/nonexistent-gangsheet-test', storage: { orphanMinAgeMs: HOUR, orphanSweepObjects } } as AppConfig;
    const left = () => [...objects.keys()].sort();
    return { sweeper: new StorageOrphansService(config, db, storage), left, listed };
  }

  it('removes every old unreferenced object of the app layout when the store is within one run', async () => {
    const { sweeper, left } = setup(1000);
    expect(await sweeper.sweep(now)).toEqual({ examined: 8, objects: 5, leftovers: 0 });
    expect(left()).toEqual(['elsewhere/x', kept, young, 'users/d/notes.txt']);
  });

  it('judges at most STORAGE_ORPHAN_SWEEP_OBJECTS objects a run, after its start and then from the beginning', async () => {
    const { sweeper, left, listed } = setup(3);
    // After users/c: users/c/images/4.png, users/c/images/young.png (too young), users/d/images/5.png.
    expect(await sweeper.sweep(now, 'users/c')).toEqual({ examined: 3, objects: 2, leftovers: 0 });
    expect(left().filter((k) => orphans.includes(k))).toEqual(orphans.slice(0, 3));
    // After users/d: notes.txt (not the app's), then from the start users/a/images/1.png, 2.png.
    expect(await sweeper.sweep(now, 'users/d')).toEqual({ examined: 3, objects: 2, leftovers: 0 });
    expect(left().filter((k) => orphans.includes(k))).toEqual(['users/b/images/3.png']);
    // The listing stops at the budget: the store is never read to its end in one run.
    listed.length = 0;
    await sweeper.sweep(now, 'users/a');
    expect(listed.length).toBeLessThanOrEqual(4);
    // Random starts reach the rest.
    for (let i = 0; i < 50 && left().includes('users/b/images/3.png'); i++) await sweeper.sweep(now);
    expect(left()).toEqual(['elsewhere/x', kept, young, 'users/d/notes.txt']);
  });
});
