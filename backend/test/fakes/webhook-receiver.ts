import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * An integrator's webhook receiver on an ephemeral port: records every request and answers
 * with the status `respond(path, n)` gives (n = how many requests that path had before).
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
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
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
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

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
