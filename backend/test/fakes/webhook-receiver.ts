import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ResponseContract } from '../utils/response-contract';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * An integrator's webhook receiver on an ephemeral port: records every request and answers
 * with the status `respond(path, n)` gives (n = how many requests that path had before).
 * Every body is checked against the document's `webhooks` payload schemas; `stop()` fails
 * with what did not match.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  readonly violations: string[] = [];
  private readonly contract = new ResponseContract();
  respond: (path: string, n: number) => number = () => 200;
  private server: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const n = this.received.filter((r) => r.path === path).length;
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path, headers: req.headers, body, at: Date.now() });
        this.violations.push(...this.contract.webhookProblems(body));
        res.statusCode = this.respond(path, n);
        res.end(res.statusCode < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  async stop() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.violations.length) throw new Error(`Webhook deliveries that break docs/openapi.json's webhooks:\n  ${[...new Set(this.violations)].join('\n  ')}`);
  }
}
