import { failureText, PermanentPrintError, RENDER_FAILED, TransientPrintError } from './print-failure';

describe('failureText (the print error of a job that failed for good)', () => {
  it("keeps the job's own seller-facing text", () => {
    expect(failureText(new TransientPrintError(RENDER_FAILED.disk))).toBe(RENDER_FAILED.disk);
    expect(failureText(new PermanentPrintError('The print has no items.'))).toBe('The print has no items.');
  });
  it("never passes on the queue's or Node's own messages", () => {
    for (const e of [new Error('job stalled more than allowable limit'), new RangeError('The value of "length" is out of range.'), 'boom']) {
      expect(failureText(e)).toBe(RENDER_FAILED.interrupted);
      expect(failureText(e)).toMatch(/^The sheet could not be rendered \(/);
    }
  });
});
