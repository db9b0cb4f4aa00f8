import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';

/** Printed size of one copy, inches: the size value is the width of the trimmed art. */
export function printedSize(trim: { width: number; height: number }, widthIn: number) {
  return { width: widthIn, height: (widthIn * trim.height) / trim.width };
}

/**
 * Whether one copy fits inside the sheet's margins (rotated if allowed), in whole pixels as
 * the engine decides it. A problem message for the seller, or null.
 */
export function fitProblem(name: string, trim: { width: number; height: number }, widthIn: number, s: SheetSettingsValues): string | null {
  const px = (v: number) => Math.round(v * s.dpi);
  const w = Math.max(1, px(widthIn));
  const h = Math.max(1, Math.round((widthIn * s.dpi * trim.height) / trim.width));
  const pw = px(s.width) - 2 * px(s.margin);
  const pl = px(s.maxLength) - 2 * px(s.margin);
  const fits = (w <= pw && h <= pl) || (s.rotate && h <= pw && w <= pl);
  if (fits) return null;
  const inch = (v: number) => +(v / s.dpi).toFixed(2);
  return `Design "${name}" is ${inch(w)} x ${inch(h)} in and does not fit a ${s.width} x ${s.maxLength} in sheet with ${s.margin} in margins.`;
}
