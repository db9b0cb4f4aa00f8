/**
 * Two threads compacting one strip as a race (docs/gangsheet.md, "Two cores on one strip").
 *
 * An attempt of the overlap compaction (overlap.ts) either separates the copies in a
 * shorter strip or gives up, and how many moves it takes varies a lot from attempt to
 * attempt (art-1: 79, 403, 2 317, 4 525, 585, 10 623, 13 286 moves). Threads that attempt the
 * same shorter strip with their own random cuts and moves, and share every success at once,
 * reach each shorter strip when the *first* of them does. This is the shared state: the
 * shortest strip found so far, in a SharedArrayBuffer, behind a spin lock.
 *
 * Layout of the Int32Array: GEN (bumped on every publish), ROWS, LOCK, STOP, COUNT, SEARCHING
 * (one bit per helper whose own bottom-left search may still publish a start), then four ints
 * per piece (type, orientation, x, y).
 */
import type { CompactPiece } from './cell-overlap';
import type { CompactRace } from './overlap';

const GEN = 0;
const ROWS = 1;
const LOCK = 2;
const STOP = 3;
const COUNT = 4;
const SEARCHING = 5;
const HEAD = 6;

export class SharedStrip implements CompactRace {
  private readonly a: Int32Array;
  private seen = 0;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.a = new Int32Array(buffer);
  }

  /** Room for `pieces` copies; helpers 1..`helpers` count as searching until `searchDone`. */
  static create(pieces: number, helpers = 0): SharedStrip {
    const s = new SharedStrip(new SharedArrayBuffer((HEAD + 4 * pieces) * 4));
    s.a[ROWS] = 0x7fffffff;
    s.a[SEARCHING] = helpers > 0 ? (2 ** helpers - 1) | 0 : 0;
    return s;
  }

  /** Helper `k` (1-based) has published its search's layout or will not (done, failed, gone). */
  searchDone(k: number): void {
    Atomics.and(this.a, SEARCHING, ~(1 << (k - 1)));
  }

  /** Whether a helper's bottom-left search may still publish a start (a converging compaction waits for it). */
  searching(): boolean {
    return Atomics.load(this.a, SEARCHING) !== 0;
  }

  private lock(): void {
    while (Atomics.compareExchange(this.a, LOCK, 0, 1) !== 0);
  }

  private unlock(): void {
    Atomics.store(this.a, LOCK, 0);
  }

  /** Shares a layout when it is shorter than the shared one; wakes a thread waiting for the first. */
  publish(pieces: readonly CompactPiece[], rows: number): void {
    this.lock();
    try {
      if (rows >= this.a[ROWS] || HEAD + 4 * pieces.length > this.a.length) return;
      this.a[COUNT] = pieces.length;
      pieces.forEach((p, i) => this.a.set([p.type, p.orientation, p.x, p.y], HEAD + 4 * i));
      this.a[ROWS] = rows;
      this.seen = Atomics.add(this.a, GEN, 1) + 1;
    } finally {
      this.unlock();
    }
    Atomics.notify(this.a, GEN);
  }

  /** Rows of the shortest shared strip (a cheap look, no lock). */
  rows(): number {
    return Atomics.load(this.a, ROWS);
  }

  /** The shared layout when another thread published one shorter than `rows` since this thread last looked. */
  take(rows: number): { pieces: CompactPiece[]; rows: number } | null {
    if (Atomics.load(this.a, GEN) === this.seen || this.rows() >= rows) return null;
    this.lock();
    try {
      this.seen = this.a[GEN];
      return this.read();
    } finally {
      this.unlock();
    }
  }

  /** The shortest shared layout (null before the first publish). */
  best(): { pieces: CompactPiece[]; rows: number } | null {
    this.lock();
    try {
      return this.a[GEN] ? this.read() : null;
    } finally {
      this.unlock();
    }
  }

  private read(): { pieces: CompactPiece[]; rows: number } {
    const pieces: CompactPiece[] = [];
    for (let i = 0, k = HEAD; i < this.a[COUNT]; i++, k += 4) pieces.push({ type: this.a[k], orientation: this.a[k + 1], x: this.a[k + 2], y: this.a[k + 3] });
    return { pieces, rows: this.a[ROWS] };
  }

  /** Blocks until the first layout is published, the race is stopped, or `ms` pass. */
  waitForStart(ms: number): void {
    if (ms > 0 && Atomics.load(this.a, GEN) === 0 && !this.over()) Atomics.wait(this.a, GEN, 0, ms);
  }

  stop(): void {
    Atomics.store(this.a, STOP, 1);
    Atomics.notify(this.a, GEN);
  }

  over(): boolean {
    return Atomics.load(this.a, STOP) === 1;
  }
}
