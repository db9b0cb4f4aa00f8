/**
 * The soak's HTTP client: a cookie-keeping session per seller over Node's fetch, and one
 * recorder that keeps every answer (time, route, status, latency) for the report.
 */

export interface Sample {
  /** ms since the soak's start */
  at: number;
  route: string;
  /** HTTP status, or 0 when no answer came (connection refused, reset, timeout) */
  status: number;
  ms: number;
  error?: string;
}

/** `/api/print/<uuid>/files/1?x` → `GET /api/print/:id/files/:n`, so answers group by route. */
export function routeOf(method: string, path: string): string {
  const p = path
    .split('?')[0]
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id')
    .replace(/\/TEST-[0-9A-F]+|\/[A-Z0-9]{17}(?=\/|$)/g, '/:orderId')
    .replace(/\/\d+(?=\/|$)/g, '/:n');
  return `${method} ${p}`;
}

export class Recorder {
  readonly samples: Sample[] = [];
  /** Unexpected answers (4xx/5xx not asked for), first 300 kept with their message. */
  readonly unexpected: Array<{ at: number; who: string; route: string; status: number; message: string }> = [];
  /** performance.now() when the load started; until then every sample is at -1 ("setup"). */
  start: number | null = null;

  now() {
    return this.start === null ? -1 : performance.now() - this.start;
  }

  add(s: Sample) {
    this.samples.push(s);
  }
}

export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: any,
  ) {
    super(message);
  }
}

export interface Res {
  status: number;
  body: any;
  headers: Headers;
}

interface ReqOpts {
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** answers accepted without being noted as unexpected (2xx and 3xx always are) */
  ok?: number[];
  raw?: boolean;
  timeoutMs?: number;
}

export class Client {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    private readonly origin: string,
    private readonly rec: Recorder,
    readonly who: string,
  ) {}

  async req(method: string, path: string, o: ReqOpts = {}): Promise<Res> {
    const headers: Record<string, string> = { Origin: this.origin, 'X-Requested-With': 'XMLHttpRequest', ...o.headers };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: BodyInit | undefined;
    if (o.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(o.json);
    } else if (o.form) body = o.form;
    const route = routeOf(method, path);
    const at = this.rec.now();
    const t = performance.now();
    let res: Response;
    let parsed: any;
    try {
      res = await fetch(this.base + path, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs ?? 60_000) });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
      }
      if (o.raw) parsed = Buffer.from(await res.arrayBuffer());
      else {
        const text = await res.text();
        parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
      }
    } catch (e) {
      const error = (e as Error).name === 'TimeoutError' ? 'timeout' : ((e as any).cause?.code ?? (e as Error).message);
      this.rec.add({ at, route, status: 0, ms: performance.now() - t, error });
      throw new HttpError(`${route}: no answer (${error})`, 0, null);
    }
    this.rec.add({ at, route, status: res.status, ms: performance.now() - t });
    if (res.status >= 400 && !o.ok?.includes(res.status)) {
      const message = typeof parsed === 'object' && parsed && !Buffer.isBuffer(parsed) ? String(parsed.message ?? JSON.stringify(parsed)) : String(parsed).slice(0, 200);
      if (this.rec.unexpected.length < 300) this.rec.unexpected.push({ at, who: this.who, route, status: res.status, message });
      throw new HttpError(`${route}: ${res.status} ${message}`, res.status, parsed);
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get = (path: string, o?: ReqOpts) => this.req('GET', path, o);
  post = (path: string, json: unknown = {}, o?: ReqOpts) => this.req('POST', path, { ...o, json });
}
