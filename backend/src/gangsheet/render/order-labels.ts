/**
 * Order labels: a small white rounded box with black text ("#5012 · 2/3") printed in the
 * space the layout reserves below each copy (`LabelSpace`, reported as `Placement.label`).
 * White under black reads on transparent film and on any garment colour the film is held
 * against, and the box is cut away with the transfer's border. The text's cap height makes
 * it 7 pt (≥ 6 pt at 300 DPI). The PNG draws the text with the built-in stroke font
 * (label-font.ts); the PDF writes it as Helvetica-Bold text, so it can be searched and copied.
 */
import { copyMatrix, Turn } from './pdf-sheet';
import { pdfNum } from './pdf-writer';
import { HELVETICA_CAP_HEIGHT, helveticaBoldEm, labelCharacters, labelTextWidth, rasterizeText } from './label-font';

/** Text size, points. */
export const LABEL_FONT_PT = 7;
/** Cap height of the text, inches. */
export const LABEL_CAP_IN = (LABEL_FONT_PT * HELVETICA_CAP_HEIGHT) / 72;
/** Padding inside the box, inches. */
const PAD_X_IN = 0.04;
const PAD_Y_IN = 0.025;
/** Between the art's bottom edge and the box, inches: room to cut between them. */
export const LABEL_OFFSET_IN = 0.04;
/** Corner radius of the box, inches. */
const RADIUS_IN = 0.025;

/** The label space (inches) that holds every one of `texts`: LayoutDesign.label. */
export function labelSpace(texts: readonly string[]): { width: number; height: number; offset: number } {
  const text = Math.max(0, ...texts.map((t) => labelTextWidth(t, LABEL_CAP_IN)));
  return { width: +(text + 2 * PAD_X_IN).toFixed(4), height: +(LABEL_CAP_IN + 2 * PAD_Y_IN).toFixed(4), offset: LABEL_OFFSET_IN };
}

/** The text of copy `index` (0-based) of `count` copies of an order's item. */
export function orderLabelText(orderNumber: string, index: number, count: number): string {
  const n = String(orderNumber).replace(/^#/, '');
  return `#${n} · ${index + 1}/${count}`;
}

/**
 * Each labelled copy's rank among its design's copies, in reading order over the sheets
 * (sheet, then row by row from the top, each row left to right): copies of one design are
 * interchangeable, so the label "2/3" goes to the second copy a reader meets. A copy belongs
 * to the row of the copy that starts it when its top is less than half a copy's height (the
 * shorter of the two) below that one's, so copies nested a little higher or lower in one row
 * still read left to right. The packing list numbers the same way. Returns `designId#copy` → rank.
 */
export function readingRanks(placements: readonly { sheet: number; designId: string; copy: number; x: number; y: number; height?: number }[]): Map<string, number> {
  const byTop = [...placements].sort((a, b) => a.sheet - b.sheet || a.y - b.y || a.x - b.x);
  const rows: (typeof byTop)[] = [];
  for (const p of byTop) {
    const lead = rows.at(-1)?.[0];
    if (lead && lead.sheet === p.sheet && p.y - lead.y < Math.min(lead.height ?? 0, p.height ?? 0) / 2) rows.at(-1)!.push(p);
    else rows.push([p]);
  }
  const sorted = rows.flatMap((row) => row.sort((a, b) => a.x - b.x || a.y - b.y));
  const next = new Map<string, number>();
  const out = new Map<string, number>();
  for (const p of sorted) {
    const r = next.get(p.designId) ?? 0;
    next.set(p.designId, r + 1);
    out.set(`${p.designId}#${p.copy}`, r);
  }
  return out;
}

/** Inside-of-rounded-rectangle coverage of pixel (x, y) in a w × h box with corner radius r. */
function boxCoverage(x: number, y: number, w: number, h: number, r: number): number {
  const cx = x + 0.5 < r ? r : x + 0.5 > w - r ? w - r : x + 0.5;
  const cy = y + 0.5 < r ? r : y + 0.5 > h - r ? h - r : y + 0.5;
  const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
  return Math.max(0, Math.min(1, r + 0.5 - d));
}

/**
 * The label as an RGBA raster of `w × h` pixels (the box on the sheet, as turned), its text
 * turned clockwise by `turn` like the copy's art.
 */
export function labelRaster(text: string, w: number, h: number, turn: Turn, dpi: number): Buffer {
  const [uw, uh] = turn === 90 || turn === 270 ? [h, w] : [w, h];
  const cap = Math.max(6, Math.round(LABEL_CAP_IN * dpi));
  const ink = rasterizeText(text, uw, uh, cap);
  const r = Math.min(RADIUS_IN * dpi, uw / 2, uh / 2);
  const up = Buffer.alloc(uw * uh * 4);
  for (let y = 0; y < uh; y++)
    for (let x = 0; x < uw; x++) {
      const a = boxCoverage(x, y, uw, uh, r);
      if (a === 0) continue;
      const v = 255 - ink[y * uw + x];
      const o = (y * uw + x) * 4;
      up[o] = up[o + 1] = up[o + 2] = v;
      up[o + 3] = Math.round(a * 255);
    }
  return turn === 0 ? up : turnRgba(up, uw, uh, turn);
}

/** An RGBA raster turned clockwise by `turn`. */
export function turnRgba(src: Buffer, w: number, h: number, turn: Turn): Buffer {
  const [tw, th] = turn === 90 || turn === 270 ? [h, w] : [w, h];
  const out = Buffer.alloc(src.length);
  for (let y = 0; y < th; y++)
    for (let x = 0; x < tw; x++) {
      // the source pixel that lands on (x, y)
      const [sx, sy] = turn === 90 ? [y, h - 1 - x] : turn === 180 ? [w - 1 - x, h - 1 - y] : turn === 270 ? [w - 1 - y, x] : [x, y];
      src.copy(out, (y * tw + x) * 4, (sy * w + sx) * 4, (sy * w + sx) * 4 + 4);
    }
  return out;
}

/** A label to draw on a page: its box on the sheet in pixels (as turned), text and turn. */
export interface PageLabel {
  x: number;
  y: number;
  width: number;
  height: number;
  turn: Turn;
  text: string;
}

/** PDF string literal of label text in WinAnsiEncoding (the middle dot is byte 0xB7). */
function pdfString(text: string): string {
  return `(${labelCharacters(text).replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A rounded rectangle path (x, y, w, h, radius r), PDF points. */
function roundedRect(w: number, h: number, r: number): string {
  const k = 0.5523 * r;
  const n = pdfNum;
  return [
    `${n(r)} 0 m`,
    `${n(w - r)} 0 l`,
    `${n(w - r + k)} 0 ${n(w)} ${n(r - k)} ${n(w)} ${n(r)} c`,
    `${n(w)} ${n(h - r)} l`,
    `${n(w)} ${n(h - r + k)} ${n(w - r + k)} ${n(h)} ${n(w - r)} ${n(h)} c`,
    `${n(r)} ${n(h)} l`,
    `${n(r - k)} ${n(h)} 0 ${n(h - r + k)} 0 ${n(h - r)} c`,
    `0 ${n(r)} l`,
    `0 ${n(r - k)} ${n(r - k)} 0 ${n(r)} 0 c`,
    'h f',
  ].join(' ');
}

/**
 * Page content drawing the labels (font resource `/FL`): per label, the frame of the upright
 * label in points turned onto its box, the white box, and the text centred in it.
 */
export function labelPdfOps(labels: readonly PageLabel[], pageHeightPx: number, dpi: number): string[] {
  const k = 72 / dpi;
  return labels.map((l) => {
    const [uwPx, uhPx] = l.turn === 90 || l.turn === 270 ? [l.height, l.width] : [l.width, l.height];
    const uw = uwPx * k;
    const uh = uhPx * k;
    const [a, b, c, d, e, f] = copyMatrix({ image: 0, x: l.x, y: l.y, width: l.width, height: l.height, turn: l.turn }, pageHeightPx, dpi);
    const m = [a / uw, b / uw, c / uh, d / uh, e, f].map(pdfNum).join(' ');
    const size = LABEL_FONT_PT;
    const tx = (uw - helveticaBoldEm(l.text) * size) / 2;
    const ty = (uh - size * HELVETICA_CAP_HEIGHT) / 2;
    const r = Math.min(RADIUS_IN * 72, uw / 2, uh / 2);
    return `q ${m} cm 1 g ${roundedRect(uw, uh, r)} 0 g BT /FL ${pdfNum(size)} Tf ${pdfNum(tx)} ${pdfNum(ty)} Td ${pdfString(l.text)} Tj ET Q`;
  });
}

/** The font dictionary the label text uses (standard Type 1 font: nothing embedded). */
export const LABEL_FONT_DICT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
