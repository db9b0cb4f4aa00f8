import { createServer } from 'node:net';

/**
 * A TCP port nobody listens on now (the system picks it), for a server a test or benchmark
 * starts: a port drawn at random can be another service's (epmd's 4369 on a machine with
 * RabbitMQ).
 */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
