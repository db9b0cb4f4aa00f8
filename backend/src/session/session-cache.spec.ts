import { User } from '../users/entities/user.entity';
import { SessionCache } from './session-cache';

/** The cache's bookkeeping without a database: the listener is marked as up by hand. */
function listeningCache(ttlMs = 5_000, maxEntries = 10_000) {
  const cache = new SessionCache('postgres://unused', ttlMs, maxEntries);
  (cache as unknown as { listening: boolean }).listening = true;
  return cache;
}
const user = (id: string, credits = 0) => Object.assign(new User(), { _id: id, availableCredits: credits, sessionVersion: 0 });

describe('SessionCache', () => {
  it('serves nothing while its listener is down', () => {
    const cache = new SessionCache('postgres://unused', 5_000);
    cache.put('s1', user('u1'), cache.current, Date.now() + 60_000);
    expect(cache.get('s1')).toBeNull();
  });

  it('does not store a lookup that a notification overtook', () => {
    const cache = listeningCache();
    const generation = cache.current;
    cache.invalidate('u:u1'); // the user changed while the lookup was reading the old row
    cache.put('s1', user('u1'), generation, Date.now() + 60_000);
    expect(cache.get('s1')).toBeNull();
  });

  it('drops every session of a user, or one session, as the notification names', () => {
    const cache = listeningCache();
    const far = Date.now() + 60_000;
    cache.put('s1', user('u1'), cache.current, far);
    cache.put('s2', user('u1'), cache.current, far);
    cache.put('s3', user('u2'), cache.current, far);
    cache.invalidate('s:s3');
    expect(cache.get('s3')).toBeNull();
    expect(cache.get('s1')).not.toBeNull();
    cache.invalidate('u:u1');
    expect([cache.get('s1'), cache.get('s2')]).toEqual([null, null]);
  });

  it('keeps an entry no longer than the TTL or the token', () => {
    const cache = listeningCache(5_000);
    const now = 1_000_000;
    cache.put('s1', user('u1'), cache.current, now + 60_000, now);
    cache.put('s2', user('u2'), cache.current, now + 1_000, now);
    expect(cache.get('s1', now + 4_999)).not.toBeNull();
    expect(cache.get('s1', now + 5_000)).toBeNull();
    expect(cache.get('s2', now + 1_000)).toBeNull();
  });

  it('hands out copies, so a handler changing its user does not change the cached one', () => {
    const cache = listeningCache();
    cache.put('s1', user('u1', 3), cache.current, Date.now() + 60_000);
    const a = cache.get('s1')!;
    a.availableCredits = 99;
    expect(cache.get('s1')!.availableCredits).toBe(3);
    expect(a).toBeInstanceOf(User);
  });

  it('stays within its size by evicting the oldest entry', () => {
    const cache = listeningCache(5_000, 2);
    const far = Date.now() + 60_000;
    for (const s of ['s1', 's2', 's3']) cache.put(s, user(s), cache.current, far);
    expect([cache.get('s1'), !!cache.get('s2'), !!cache.get('s3')]).toEqual([null, true, true]);
  });
});

describe('SessionCache.settle', () => {
  it('runs one query at a time on the listener; callers during one join the next, which starts after it', async () => {
    const cache = listeningCache();
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const client = {
      query: async () => {
        started.push(started.length);
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
      },
    };
    (cache as unknown as { client: unknown }).client = client;
    const first = cache.settle();
    const joined = [cache.settle(), cache.settle(), cache.settle()];
    await Promise.all([first, ...joined]);
    expect(maxInFlight).toBe(1);
    expect(started).toHaveLength(2);
  });
});
