import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import type { NextFunction, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../../src/openapi';

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  statuses: Set<string>;
  /** JSON Pointer of each status's JSON body schema in the document. */
  bodies: Map<string, string>;
  /** The headers each status declares as always present. */
  requiredHeaders: Map<string, string[]>;
}

const pointer = (...parts: string[]) => '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const CODE = /^[a-z][a-z0-9_]*$/;

/**
 * Checks every response an e2e app sends against docs/openapi.json, from inside the app (so
 * supertest agents and raw requests alike are seen): each answer names its request
 * (Request-Id), each error has the documented error shape with that id, and a 200 or 201 of
 * a documented route is declared for it. A broken rule is recorded, and `assertClean()`
 * (called by the test app's close) fails the suite with the list.
 */
export class ResponseContract {
  readonly violations: string[] = [];
  /** Error statuses a documented route answered but does not declare (not enforced yet). */
  readonly undeclared: string[] = [];
  private readonly operations: Operation[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    doc: { paths: Record<string, Record<string, { responses?: Record<string, any> }>>; components?: { headers?: Record<string, { required?: boolean }> } } = JSON.parse(
      readFileSync(OPENAPI_FILE, 'utf8'),
    ),
  ) {
    const header = (h: { $ref?: string; required?: boolean }) => (h.$ref ? doc.components?.headers?.[h.$ref.split('/').pop()!] : h);
    // The whole document is one schema resource, so its `#/components/...` references resolve.
    this.ajv.addSchema({ ...doc, $id: 'openapi' });
    this.operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        // Literal segments first, so /api/print/preview is not taken for /api/print/{id}.
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        statuses: new Set(Object.keys(op.responses ?? {})),
        bodies: new Map(
          Object.entries(op.responses ?? {})
            .filter(([, r]) => r?.content?.['application/json']?.schema)
            .map(([status]) => [status, pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')]),
        ),
        requiredHeaders: new Map(
          Object.entries(op.responses ?? {}).map(([status, r]) => [status, Object.entries(r?.headers ?? {}).filter(([, h]) => header(h as object)?.required).map(([name]) => name)]),
        ),
      })),
    );
    this.operations.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  }

  /** The documented operation of a request, if any. */
  operation(method: string, path: string): Operation | undefined {
    return this.operations.find((o) => o.method === method && o.pattern.test(path));
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        this.checkBody(req, res, body);
        return json(body);
      };
      res.on('finish', () => this.checkAnswer(req, res));
      next();
    };
  }

  private record(req: Request, res: Response, problem: string) {
    this.violations.push(`${req.method} ${req.originalUrl.split('?')[0]} → ${res.statusCode}: ${problem}`);
  }

  private checkAnswer(req: Request, res: Response) {
    if (!res.getHeader('request-id')) this.record(req, res, 'no Request-Id header');
    const path = req.originalUrl.split('?')[0];
    if (!path.startsWith('/api/')) return;
    const op = this.operation(req.method, path);
    for (const name of op?.requiredHeaders.get(String(res.statusCode)) ?? []) if (!res.getHeader(name)) this.record(req, res, `no ${name} header (declared as always present)`);
    if (!op || op.statuses.has(String(res.statusCode)) || op.statuses.has('default')) return;
    const problem = `status not declared for ${op.method} ${op.path} (declared: ${[...op.statuses].join(', ')})`;
    // Enforced for the successes a generated client types its data by; the error statuses the
    // document does not declare yet (409s…) are listed by RESPONSE_CONTRACT=report.
    if (res.statusCode === 200 || res.statusCode === 201) this.record(req, res, problem);
    else this.undeclared.push(`${req.method} ${path} → ${res.statusCode}: ${problem}`);
  }

  /** The body against the schema its operation declares for this status. */
  private checkSchema(req: Request, res: Response, body: unknown) {
    const path = req.originalUrl.split('?')[0];
    const op = path.startsWith('/api/') ? this.operation(req.method, path) : undefined;
    const at = op?.bodies.get(String(res.statusCode));
    if (!at) return;
    let validate = this.validators.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${at}` });
      this.validators.set(at, validate);
    }
    // What the client receives: JSON, so dates are strings and undefined fields absent.
    if (validate(JSON.parse(JSON.stringify(body) ?? 'null'))) return;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
    this.record(req, res, `body does not match ${op!.method} ${op!.path} ${res.statusCode}: ${errors.join('; ')}`);
  }

  private checkBody(req: Request, res: Response, body: unknown) {
    this.checkSchema(req, res, body);
    if (res.statusCode < 400) return;
    const b = body as Record<string, unknown> | null;
    const problems: string[] = [];
    if (!b || typeof b !== 'object') problems.push('error body is not an object');
    else {
      if (b.statusCode !== res.statusCode) problems.push(`statusCode ${String(b.statusCode)}`);
      if (typeof b.code !== 'string' || !CODE.test(b.code)) problems.push(`code ${JSON.stringify(b.code)}`);
      if (typeof b.message !== 'string' || !b.message) problems.push('no message');
      if (b.requestId !== res.getHeader('request-id')) problems.push(`requestId ${JSON.stringify(b.requestId)} is not the Request-Id header`);
      if (b.errors !== undefined) {
        const ok = Array.isArray(b.errors) && b.errors.every((e) => e && typeof e.field === 'string' && typeof e.code === 'string' && typeof e.message === 'string');
        if (!ok) problems.push('errors entries are not {field, code, message}');
      }
    }
    if (problems.length) this.record(req, res, `error shape: ${problems.join('; ')}`);
  }

  /**
   * A webhook delivery's body against the document's `webhooks` entry for its event: the
   * problems, or an empty list when it matches.
   */
  webhookProblems(rawBody: string): string[] {
    const body = JSON.parse(rawBody) as { type?: string };
    const type = String(body.type);
    const at = pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema');
    let validate = this.validators.get(at);
    try {
      validate ??= this.ajv.compile({ $ref: `openapi${at}` });
    } catch {
      return [`event type ${JSON.stringify(type)} is not in the document's webhooks`];
    }
    this.validators.set(at, validate);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${type}: ${e.instancePath || '(body)'} ${e.message}`);
  }

  /** Throws with every broken rule seen so far. */
  assertClean() {
    if (!this.violations.length) return;
    const unique = [...new Set(this.violations)];
    throw new Error(`Responses that break docs/openapi.json (${unique.length}):\n  ${unique.join('\n  ')}`);
  }
}
