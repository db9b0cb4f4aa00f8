/** A failure that retrying cannot fix; the print fails at once instead of after every attempt. */
export class PermanentPrintError extends Error {}

/** A failure that is retried, whose message is written for the seller (the internals are logged). */
export class TransientPrintError extends Error {}

/** What a seller reads when the engine fails: never ids, stacks or Node's own messages. */
export const RENDER_FAILED = {
  internal: 'The sheet could not be rendered (an error on our side). Your credits were refunded; please process the print again.',
  disk: 'The sheet could not be rendered (the server ran short of disk space). Your credits were refunded; please process the print again later.',
  interrupted: 'The sheet could not be rendered (processing was interrupted). Your credits were refunded; please process the print again.',
  unreadable: (name?: string) => `The sheet could not be rendered: ${name ? `the file of design "${name}"` : 'a design file'} could not be read. Please replace the design.`,
  overLimit: (name: string) => `The sheet could not be rendered: design "${name}" has more pixels than allowed. Please upload a smaller file.`,
  misplaced: 'The sheet could not be rendered: a design file could not be found. Please upload the design again.',
};

/**
 * The seller-facing text of a job failure that reached the queue's final failure handler:
 * the job's own errors are already worded for the seller; anything else (the queue's
 * "job stalled more than allowable limit" after its worker died twice, a database error
 * before the run started) gets the generic text.
 */
export function failureText(e: unknown): string {
  if (e instanceof TransientPrintError || e instanceof PermanentPrintError) return e.message;
  return RENDER_FAILED.interrupted;
}
