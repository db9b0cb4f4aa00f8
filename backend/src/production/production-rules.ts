/** A seller's batching rules as stored (production_settings.rules); see docs/production.md. */
export interface ProductionRules {
  presetId: string | null;
  /** Changes on top of the sheet settings or preset (SheetSettingsInput fields). */
  sheet: Record<string, unknown>;
  triggers: { minLengthIn: number | null; density: number; cutoffs: string[]; maxWaitHours: number | null };
  timeZone: string;
  rush: { tags: string[]; shippingMethods: string[] };
  autoProcess: boolean;
  labels: boolean;
  maxCopiesPerBatch: number;
}

export const DEFAULT_RULES: ProductionRules = {
  presetId: null,
  sheet: {},
  triggers: { minLengthIn: null, density: 0.7, cutoffs: [], maxWaitHours: null },
  timeZone: 'UTC',
  rush: { tags: [], shippingMethods: [] },
  autoProcess: false,
  labels: true,
  maxCopiesPerBatch: 1000,
};

/** The rush words as matched: trimmed, lower case, no empty ones. */
export function rushTerms(r: ProductionRules): { tags: string[]; shipping: string[]; options: string[] } {
  const norm = (xs: string[]) => [...new Set(xs.map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const tags = norm(r.rush.tags);
  const shipping = norm(r.rush.shippingMethods);
  return { tags, shipping, options: [...new Set([...tags, ...shipping])] };
}

/**
 * Whether an order is rush: one of its shop tags is a rush tag, one of its shipping methods
 * (name or id) is a rush shipping method, or one of its items has an option whose name or
 * value is either (shops and plugins that put the choice on the item). Case-insensitive,
 * whole words. The queue's SQL (production.repository.ts) decides the same way.
 */
export function isRush(
  terms: ReturnType<typeof rushTerms>,
  order: { tags: string[]; shippingMethods: string[]; options: Array<{ name: string; value: string }> },
): boolean {
  const has = (list: string[], v: string) => list.includes(v.trim().toLowerCase());
  return (
    order.tags.some((t) => has(terms.tags, t)) ||
    order.shippingMethods.some((s) => has(terms.shipping, s)) ||
    order.options.some((o) => has(terms.options, o.name) || has(terms.options, o.value))
  );
}

/** Batching runs by itself when any trigger is on; otherwise only "Batch now" batches. */
export const isAuto = (r: ProductionRules) => r.triggers.minLengthIn != null || r.triggers.cutoffs.length > 0 || r.triggers.maxWaitHours != null;

export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of `t` in `tz`. */
function wall(t: Date, tz: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(t);
  const get = (k: string) => Number(parts.find((p) => p.type === k)!.value);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

/** The instant the wall-clock time y-mo-d h:mi has in `tz` (the later one when a clock change repeats it). */
export function zonedInstant(y: number, mo: number, d: number, h: number, mi: number, tz: string): Date {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  let t = asUtc;
  // Two rounds settle the offset, also across a daylight-saving change.
  for (let k = 0; k < 2; k++) {
    const w = wall(new Date(t), tz);
    const offset = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - t;
    t = asUtc - offset;
  }
  return new Date(t);
}

/** Cut-off instants of the local days around `now` (yesterday, today, tomorrow), ascending. */
function cutoffInstants(now: Date, cutoffs: string[], tz: string): Date[] {
  const today = wall(now, tz);
  const out: Date[] = [];
  for (const dd of [-1, 0, 1]) {
    const day = new Date(Date.UTC(today.y, today.mo - 1, today.d + dd));
    for (const c of cutoffs) {
      const [h, mi] = c.split(':').map(Number);
      out.push(zonedInstant(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), h, mi, tz));
    }
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}

/** The latest cut-off at or before `now`, or null without cut-offs. */
export function latestCutoff(now: Date, cutoffs: string[], tz: string): Date | null {
  const past = cutoffInstants(now, cutoffs, tz).filter((t) => t.getTime() <= now.getTime());
  return past.at(-1) ?? null;
}

/** The first cut-off after `now`, or null without cut-offs. */
export function nextCutoff(now: Date, cutoffs: string[], tz: string): Date | null {
  return cutoffInstants(now, cutoffs, tz).find((t) => t.getTime() > now.getTime()) ?? null;
}

export interface OrderGroup<T> {
  orderId: string;
  copies: number;
  items: T[];
}

/**
 * The orders of one batch, in priority order (the caller sorts: rush first, then oldest):
 * whole orders while they fit in `maxCopies`; an order larger than that alone goes alone,
 * whole. An order's items are never split between batches.
 */
export function takeBatch<T extends { order_id: string; quantity: number }>(rows: T[], maxCopies: number): T[] {
  const groups: OrderGroup<T>[] = [];
  const byOrder = new Map<string, OrderGroup<T>>();
  for (const r of rows) {
    let g = byOrder.get(r.order_id);
    if (!g) {
      g = { orderId: r.order_id, copies: 0, items: [] };
      byOrder.set(r.order_id, g);
      groups.push(g);
    }
    g.items.push(r);
    g.copies += r.quantity;
  }
  const out: T[] = [];
  let copies = 0;
  for (const g of groups) {
    if (copies > 0 && copies + g.copies > maxCopies) continue;
    out.push(...g.items);
    copies += g.copies;
    if (copies >= maxCopies) break;
  }
  return out;
}
