/**
 * Whether one copy of a design fits a sheet: inside the margins, turned by 90° when rotation
 * is allowed, in the whole pixels `layoutSheets` places it with (see designPixelSize). The
 * app checks this before it charges, so a print the layout would refuse never gets that far.
 */
import { designPixelSize, LayoutDesign } from './pack/layout';

export interface FitSheet {
  width: number;
  maxLength: number;
  margin: number;
  dpi: number;
  rotate: boolean;
}

export interface DesignFit {
  fits: boolean;
  /** One copy as printed, inches (from its whole pixels). */
  width: number;
  height: number;
}

export function designFit(d: Pick<LayoutDesign, 'widthPx' | 'heightPx' | 'width'>, s: FitSheet): DesignFit {
  const px = (v: number) => Math.round(v * s.dpi);
  const { w, h } = designPixelSize(d, s.dpi);
  const printableWidth = px(s.width) - 2 * px(s.margin);
  const printableLength = Number.isFinite(s.maxLength) ? px(s.maxLength) - 2 * px(s.margin) : Infinity;
  const fits = (w <= printableWidth && h <= printableLength) || (s.rotate && h <= printableWidth && w <= printableLength);
  return { fits, width: w / s.dpi, height: h / s.dpi };
}
