import { designFit, FitSheet } from './engine.adapter';

/** Printed size of one copy, inches: the size value is the width of the trimmed art. */
export function printedSize(trim: { width: number; height: number }, widthIn: number) {
  return { width: widthIn, height: (widthIn * trim.height) / trim.width };
}

/**
 * Whether one copy fits inside the sheet's margins (rotated if allowed), decided by the
 * engine's fit check exactly as its layout will. A problem message for the seller, or null.
 */
export function fitProblem(name: string, trim: { width: number; height: number }, widthIn: number, s: FitSheet): string | null {
  const fit = designFit({ widthPx: trim.width, heightPx: trim.height, width: widthIn }, s);
  if (fit.fits) return null;
  const inch = (v: number) => +v.toFixed(2);
  return `Design "${name}" is ${inch(fit.width)} x ${inch(fit.height)} in and does not fit a ${s.width} x ${s.maxLength} in sheet with ${s.margin} in margins.`;
}
