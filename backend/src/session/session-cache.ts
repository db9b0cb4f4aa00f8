import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { User } from '../users/entities/user.entity';

/** The channel the users and sessions triggers notify (migration SessionChangeNotify). */
export const AUTH_CHANNEL = 'gs_auth';

interface Entry {
  user: User;
  expiresAt: number;
}

/**
 * Checked sessions, reused for a few seconds so an authenticated request costs no query.
 *
 * Correctness rests on PostgreSQL telling every node about each change: triggers on `users`
 * (any update or delete: status, role, credits, session version…) and `sessions` (delete:
 * logout, password reset, deactivation) `NOTIFY gs_auth`, and each node LISTENs on a
 * connection of its own. A notification drops the entries it names, whichever node or SQL
 * statement made the change, so a logout or a deactivation takes effect on every node as soon
 * as it commits. While that connection is down the cache is off (and emptied), so a missed
 * notification can never leave a revoked session in use; the TTL bounds what a silently dead
 * connection could serve until TCP keepalive notices.
 */
export class SessionCache {
  private readonly log = new Logger(SessionCache.name);
  private readonly entries = new Map<string, Entry>();
  private client: Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Bumped by every notification: a lookup that started before one must not be stored. */
  private generation = 0;
  private roundTrip: Promise<void> | null = null;
  private nextRoundTrip: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.listening && !this.closed;
  }

  async start(): Promise<void> {
    if (this.ttlMs <= 0) return;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.drop();
    await this.client?.end().catch(() => undefined);
  }

  /** The generation a lookup starts at; pass it back to `put`. */
  get current(): number {
    return this.generation;
  }

  get(sid: string, now = Date.now()): User | null {
    if (!this.enabled) return null;
    const e = this.entries.get(sid);
    if (!e) return null;
    if (e.expiresAt <= now) {
      this.entries.delete(sid);
      return null;
    }
    // A copy: a handler may change its request's user without touching the cached one.
    return Object.assign(Object.create(Object.getPrototypeOf(e.user)) as User, e.user);
  }

  /** Stores a checked session unless anything changed since `generation`; `tokenExpiresAt` caps it. */
  put(sid: string, user: User, generation: number, tokenExpiresAt: number, now = Date.now()): void {
    if (!this.enabled || generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const copy = Object.assign(Object.create(Object.getPrototypeOf(user)) as User, user);
    this.entries.set(sid, { user: copy, expiresAt: Math.min(now + this.ttlMs, tokenExpiresAt) });
  }

  /** Applies a notification's payload: `u:<user id>` or `s:<session id>`. */
  invalidate(payload: string): void {
    this.generation++;
    const id = payload.slice(2);
    if (payload.startsWith('s:')) this.entries.delete(id);
    else for (const [sid, e] of this.entries) if (e.user._id === id) this.entries.delete(sid);
  }

  /**
   * Returns once every notification committed before the call has been applied. PostgreSQL
   * sends a listening connection its pending notifications before the answer to its next
   * query, so one round trip on that connection is the barrier. Called after a request that
   * wrote, so the same node never answers from an entry that its own write made stale.
   */
  settle(): Promise<void> {
    // Callers arriving while a round trip is in flight join the next one, which starts after it:
    // one query at a time on the connection, and every caller's barrier starts after its call.
    if (!this.roundTrip) {
      this.roundTrip = this.ping().finally(() => (this.roundTrip = null));
      return this.roundTrip;
    }
    this.nextRoundTrip ??= this.roundTrip.then(() => {
      this.nextRoundTrip = null;
      return this.settle();
    });
    return this.nextRoundTrip;
  }

  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || !this.listening) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), 1_000)));
    const done = await Promise.race([client.query('SELECT 1').then(() => 'ok' as const, () => 'failed' as const), timeout]);
    clearTimeout(timer);
    // A listener that cannot answer may have missed notifications: trust nothing cached.
    if (done !== 'ok') this.drop();
  }

  /** Forgets every entry (and any lookup in flight). */
  drop(): void {
    this.generation++;
    this.entries.clear();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, application_name: 'gangsheet-session-cache', keepAlive: true, keepAliveInitialDelayMillis: 5_000 });
    this.client = client;
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.drop();
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.log.warn(`Session cache off until its database listener is back${err ? `: ${err.message}` : ''}`);
      this.retry = setTimeout(() => void this.connect(), 1_000);
      this.retry.unref();
    };
    client.on('notification', (n) => n.channel === AUTH_CHANNEL && n.payload && this.invalidate(n.payload));
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANNEL}`);
      // Anything cached before this point may have missed a notification.
      this.drop();
      this.listening = true;
    } catch (e) {
      lost(e as Error);
    }
  }
}
