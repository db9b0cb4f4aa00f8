import { ConflictException, HttpException, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { firstValueFrom, Observable, of, throwError } from 'rxjs';
import { AppConfig } from '../config/configuration';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';

/**
 * The `idempotency_keys` table as the service uses it, in memory: INSERT … ON CONFLICT wins
 * only for a new key (or an expired or abandoned one), SELECT reads the row, UPDATE stores
 * the answer, DELETE drops an unfinished row. Enough to run the service and the interceptor
 * without PostgreSQL; the SQL itself is covered by test/idempotency.e2e-spec.ts.
 */
function fakeTable() {
  const rows = new Map<string, { fingerprint: string; status_code: number | null; response: string | null }>();
  const id = (p: unknown[]) => `${p[0]}/${p[1]}`;
  return {
    rows,
    async query(sql: string, p: unknown[]) {
      const verb = sql.trim().split(/\s/)[0];
      if (verb === 'INSERT') {
        if (rows.has(id(p))) return [];
        rows.set(id(p), { fingerprint: p[2] as string, status_code: null, response: null });
        return [{ key: p[1] }];
      }
      if (verb === 'SELECT') return rows.has(id(p)) ? [{ ...rows.get(id(p)) }] : [];
      if (verb === 'UPDATE') {
        const row = rows.get(id(p));
        if (row) Object.assign(row, { status_code: p[2], response: p[3] });
        return [[], row ? 1 : 0];
      }
      if (verb === 'DELETE') {
        if (rows.get(id(p))?.status_code === null) rows.delete(id(p));
        return [[], 1];
      }
      throw new Error(`unexpected SQL: ${sql}`);
    },
  };
}

const config = { api: { idempotencyTtlMs: 86_400_000 } } as AppConfig;

function setup() {
  const table = fakeTable();
  const store = new IdempotencyService(table as any, config, {} as any);
  const interceptor = new IdempotencyInterceptor(store);
  const handler = () => undefined;
  /** One POST through the interceptor; `route` is the controller method's own work. */
  async function post(body: object, key: string | undefined, route: () => Observable<unknown>) {
    const headers: Record<string, string> = {};
    const req = { method: 'POST', url: '/api/buyCredits', body, user: { _id: 'user-1' }, headers: key ? { 'idempotency-key': key } : {} };
    const res = { statusCode: 200, header: (k: string, v: string) => (headers[k] = v), status: jest.fn() };
    const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }), getHandler: () => handler } as any;
    const body$ = interceptor.intercept(context, { handle: route });
    return { body: await firstValueFrom(body$), replayed: headers['Idempotent-Replayed'] === 'true', res };
  }
  return { table, store, post };
}

describe('idempotency keys', () => {
  it('answers a repeat with the same key and body with the first answer, without running the route again', async () => {
    const { post } = setup();
    let runs = 0;
    const route = () => of({ data: { paymentId: `p-${++runs}` } });
    const first = await post({ sku: 'credits500' }, 'key-1', route);
    const again = await post({ sku: 'credits500' }, 'key-1', route);
    expect(runs).toBe(1);
    expect(first).toMatchObject({ body: { data: { paymentId: 'p-1' } }, replayed: false });
    expect(again).toMatchObject({ body: { data: { paymentId: 'p-1' } }, replayed: true });
    expect(again.res.status).toHaveBeenCalledWith(201);
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const { post } = setup();
    const route = jest.fn(() => of({ ok: true }));
    await post({ a: 1, b: { c: 2, d: 3 } }, 'key-2', route);
    expect((await post({ b: { d: 3, c: 2 }, a: 1 }, 'key-2', route)).replayed).toBe(true);
    expect(route).toHaveBeenCalledTimes(1);
  });

  it('refuses the same key with a different body (422) and runs nothing', async () => {
    const { post } = setup();
    const route = jest.fn(() => of({ ok: true }));
    await post({ sku: 'credits500' }, 'key-3', route);
    await expect(post({ sku: 'credits5000' }, 'key-3', route)).rejects.toBeInstanceOf(UnprocessableEntityException);
    expect(route).toHaveBeenCalledTimes(1);
  });

  it('replays a refusal (4xx) as the same error, but forgets a server error so the client may retry', async () => {
    const { post, table } = setup();
    await expect(post({ sku: 'nope' }, 'key-4', () => throwError(() => new NotFoundException('Payment not found')))).rejects.toBeInstanceOf(NotFoundException);
    const replay = post({ sku: 'nope' }, 'key-4', () => of('never'));
    await expect(replay).rejects.toMatchObject({ status: 404, response: { message: 'Payment not found' } });

    await expect(post({ sku: 'x' }, 'key-5', () => throwError(() => new HttpException('boom', 503)))).rejects.toMatchObject({ status: 503 });
    expect(table.rows.has('user-1/key-5')).toBe(false);
    expect(await post({ sku: 'x' }, 'key-5', () => of({ ok: 'second try' }))).toMatchObject({ body: { ok: 'second try' }, replayed: false });
  });

  it('does nothing without the header', async () => {
    const { post, table } = setup();
    const route = jest.fn(() => of({ ok: true }));
    await post({ sku: 'credits500' }, undefined, route);
    await post({ sku: 'credits500' }, undefined, route);
    expect(route).toHaveBeenCalledTimes(2);
    expect(table.rows.size).toBe(0);
  });

  it('makes a repeat wait while the first request is still running, then answers what it answered', async () => {
    const { post } = setup();
    let finish!: (v: unknown) => void;
    const slow = () => new Observable((s) => void (finish = (v) => (s.next(v), s.complete())));
    const first = post({ sku: 'credits500' }, 'key-6', slow);
    await new Promise((r) => setTimeout(r, 20));
    const second = post({ sku: 'credits500' }, 'key-6', () => of('must not run'));
    await new Promise((r) => setTimeout(r, 150));
    finish({ data: 'first' });
    expect(await first).toMatchObject({ body: { data: 'first' }, replayed: false });
    expect(await second).toMatchObject({ body: { data: 'first' }, replayed: true });
  });

  it('answers 409 when the first request is still running after the wait', async () => {
    const { store } = setup();
    expect(await store.claim('user-1', 'key-7', 'fp')).toEqual({ kind: 'owner' });
    await expect(store.claim('user-1', 'key-7', 'fp', 50)).rejects.toBeInstanceOf(ConflictException);
    await expect(store.claim('user-1', 'key-7', 'other', 50)).rejects.toBeInstanceOf(UnprocessableEntityException);
  });
});
