import type { FastifyInstance } from 'fastify';
import { SessionService } from './session.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes for the session cache: the answer to an HTTP request that may have written
 * leaves only after this node has applied the change notifications its writes caused, so the
 * next request (from the same browser or anyone else) never sees the user row as it was
 * before. Reads pass straight through; refusals wait too, since a failed request may have
 * written before it failed.
 */
export function useSessionWriteBarrier(fastify: FastifyInstance, sessions: SessionService): void {
  fastify.addHook('onSend', (req, _reply, payload, done) => {
    if (READS.has(req.method)) return done(null, payload);
    const finish = () => done(null, payload);
    sessions.settle().then(finish, finish);
  });
}
