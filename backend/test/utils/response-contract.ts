import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * (Request-Id), every status a documented route answers (errors included) is declared for it,
 * its body matches the schema declared for that status, and each error has the documented
 * error shape with that id. A broken rule is recorded, and `assertClean()` (called by the test
 * app's close) fails the suite with the list; RESPONSE_CONTRACT=report prints it too.
 */
export class ResponseContract {
  readonly violations: string[] = [];
  private readonly operations: Operation[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    doc: {
      paths: Record<string, Record<string, { responses?: Record<string, any> }>>;
      components?: { headers?: Record<string, { required?: boolean }>; responses?: Record<string, any> };
    } = JSON.parse(
      readFileSync(OPENAPI_FILE, 'utf8'),
    ),
  ) {
    const header = (h: { $ref?: string; required?: boolean }) => (h.$ref ? doc.components?.headers?.[h.$ref.split('/').pop()!] : h);
    // A shared answer (`$ref: '#/components/responses/Busy'`) is checked like one written out.
    const answerAt = (path: string, method: string, status: string, r: any): [any, string[]] =>
      r?.$ref ? [doc.components?.responses?.[r.$ref.split('/').pop()], ['components', 'responses', r.$ref.split('/').pop()]] : [r, ['paths', path, method, 'responses', status]];
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
            .map(([status, r]) => [status, ...answerAt(path, method, status, r)] as const)
            .filter(([, r]) => r?.content?.['application/json']?.schema)
            .map(([status, , at]) => [status, pointer(...at, 'content', 'application/json', 'schema')]),
        ),
        requiredHeaders: new Map(
          Object.entries(op.responses ?? {}).map(([status, r]) => [
            status,
            Object.entries(answerAt(path, method, status, r)[0]?.headers ?? {})
              .filter(([, h]) => header(h as object)?.required)
              .map(([name]) => name),
          ]),
        ),
      })),
    );
    this.operations.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  }

  /** The documented operation of a request, if any. */
  operation(method: string, path: string): Operation | undefined {
    return this.operations.find((o) => o.method === method && o.pattern.test(path));
  }

  /** Checks every answer of the app: the JSON body as it is sent, the status and headers once it has gone. */
  watch(fastify: FastifyInstance) {
    const sentJson = new WeakSet<FastifyRequest>();
    fastify.addHook('onSend', (req, res, payload, done) => {
      if (typeof payload === 'string' && String(res.getHeader('content-type') ?? '').startsWith('application/json')) {
        sentJson.add(req);
        this.checkBody(req, res, JSON.parse(payload));
      }
      done(null, payload);
    });
    fastify.addHook('onResponse', (req, res, done) => {
      this.checkAnswer(req, res, sentJson.has(req));
      done();
    });
  }

  private record(req: FastifyRequest, res: FastifyReply, problem: string) {
    this.violations.push(`${req.method} ${req.url.split('?')[0]} → ${res.statusCode}: ${problem}`);
  }

  private checkAnswer(req: FastifyRequest, res: FastifyReply, sentJson: boolean) {
    if (!res.getHeader('request-id')) this.record(req, res, 'no Request-Id header');
    const path = req.url.split('?')[0];
    if (!path.startsWith('/api/')) return;
    const op = this.operation(req.method, path);
    for (const name of op?.requiredHeaders.get(String(res.statusCode)) ?? []) if (!res.getHeader(name)) this.record(req, res, `no ${name} header (declared as always present)`);
    // A generated client types each status's answer from the document: an undeclared one,
    // success or error, is an answer it cannot know.
    // An error declared with the JSON error body must come with it (not an empty or text answer).
    if (op && res.statusCode >= 400 && !sentJson && req.method !== 'HEAD' && op.bodies.has(String(res.statusCode))) this.record(req, res, 'error without its JSON body');
    if (!op || op.statuses.has(String(res.statusCode)) || op.statuses.has('default')) return;
    this.record(req, res, `status not declared for ${op.method} ${op.path} (declared: ${[...op.statuses].join(', ')})`);
  }

  /** The body against the schema its operation declares for this status. */
  private checkSchema(req: FastifyRequest, res: FastifyReply, body: unknown) {
    const path = req.url.split('?')[0];
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

  private checkBody(req: FastifyRequest, res: FastifyReply, body: unknown) {
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
