/**
 * A small built-in stroke font for order labels, so that label text never depends on the
 * fonts installed on the machine that renders (CI machines and containers may have none).
 *
 * Each glyph is a few polylines on a grid 4 units wide and 6 units tall (the cap height; y
 * grows downwards, the baseline is y = 6). Text is drawn by stroking them with round caps
 * (`rasterizeText`: coverage from the distance to the nearest segment, so edges are
 * anti-aliased without any library). Lowercase letters are drawn as capitals; a character
 * the font lacks is drawn as "?". The PDF writes the same text in the standard
 * Helvetica-Bold font instead (every PDF reader has it; nothing is embedded); the label box
 * is sized for whichever of the two is wider (`labelTextWidth`).
 */

type Pt = readonly [number, number];
type Glyph = { w: number; lines: readonly (readonly Pt[])[] };

const O: Pt[] = [[1, 0], [3, 0], [4, 1], [4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0]];
const P: Pt[] = [[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]];

const GLYPHS: Record<string, Glyph> = {
  '0': { w: 4, lines: [O] },
  '1': { w: 4, lines: [[[1, 1], [2, 0], [2, 6]], [[1, 6], [3, 6]]] },
  '2': { w: 4, lines: [[[0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [0, 6], [4, 6]]] },
  '3': { w: 4, lines: [[[0, 0], [4, 0], [2, 2.5], [3, 2.5], [4, 3.5], [4, 5], [3, 6], [1, 6], [0, 5]]] },
  '4': { w: 4, lines: [[[3, 6], [3, 0], [0, 4], [4, 4]]] },
  '5': { w: 4, lines: [[[4, 0], [0, 0], [0, 2.5], [3, 2.5], [4, 3.5], [4, 5], [3, 6], [1, 6], [0, 5]]] },
  '6': { w: 4, lines: [[[3.5, 0], [2, 0], [0, 2], [0, 5], [1, 6], [3, 6], [4, 5], [4, 3.5], [3, 2.5], [1, 2.5], [0, 3.5]]] },
  '7': { w: 4, lines: [[[0, 0], [4, 0], [1.5, 6]]] },
  '8': { w: 4, lines: [[[1, 3], [0, 2], [0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [3, 3], [1, 3], [0, 4], [0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [3, 3]]] },
  '9': { w: 4, lines: [[[0.5, 6], [2, 6], [4, 4], [4, 1], [3, 0], [1, 0], [0, 1], [0, 2.5], [1, 3.5], [3, 3.5], [4, 2.5]]] },
  '#': { w: 4, lines: [[[1.6, 0.5], [1.1, 5.5]], [[3.2, 0.5], [2.7, 5.5]], [[0, 2], [4, 2]], [[0, 4], [4, 4]]] },
  '·': { w: 1, lines: [[[0.5, 3]]] },
  '/': { w: 3, lines: [[[0, 6], [3, 0]]] },
  '-': { w: 3, lines: [[[0, 3.5], [3, 3.5]]] },
  '.': { w: 1, lines: [[[0.5, 6]]] },
  '_': { w: 4, lines: [[[0, 6], [4, 6]]] },
  ' ': { w: 1.5, lines: [] },
  '?': { w: 4, lines: [[[0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [2, 3.5], [2, 4.3]], [[2, 6]]] },
  A: { w: 4, lines: [[[0, 6], [2, 0], [4, 6]], [[0.7, 4], [3.3, 4]]] },
  B: { w: 4, lines: [[[0, 3], [3, 3], [4, 4], [4, 5], [3, 6], [0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3]]] },
  C: { w: 4, lines: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5]]] },
  D: { w: 4, lines: [[[0, 0], [0, 6], [2.5, 6], [4, 4.5], [4, 1.5], [2.5, 0], [0, 0]]] },
  E: { w: 4, lines: [[[4, 0], [0, 0], [0, 6], [4, 6]], [[0, 3], [3, 3]]] },
  F: { w: 4, lines: [[[4, 0], [0, 0], [0, 6]], [[0, 3], [3, 3]]] },
  G: { w: 4, lines: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5], [4, 3.5], [2.5, 3.5]]] },
  H: { w: 4, lines: [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]] },
  I: { w: 2, lines: [[[0, 0], [2, 0]], [[1, 0], [1, 6]], [[0, 6], [2, 6]]] },
  J: { w: 4, lines: [[[4, 0], [4, 5], [3, 6], [1, 6], [0, 5]]] },
  K: { w: 4, lines: [[[0, 0], [0, 6]], [[4, 0], [0, 4]], [[1.5, 2.6], [4, 6]]] },
  L: { w: 4, lines: [[[0, 0], [0, 6], [4, 6]]] },
  M: { w: 5, lines: [[[0, 6], [0, 0], [2.5, 3.5], [5, 0], [5, 6]]] },
  N: { w: 4, lines: [[[0, 6], [0, 0], [4, 6], [4, 0]]] },
  O: { w: 4, lines: [O] },
  P: { w: 4, lines: [P] },
  Q: { w: 4, lines: [O, [[2.5, 4.5], [4, 6]]] },
  R: { w: 4, lines: [P, [[2, 3], [4, 6]]] },
  S: { w: 4, lines: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 2], [1, 3], [3, 3], [4, 4], [4, 5], [3, 6], [1, 6], [0, 5]]] },
  T: { w: 4, lines: [[[0, 0], [4, 0]], [[2, 0], [2, 6]]] },
  U: { w: 4, lines: [[[0, 0], [0, 5], [1, 6], [3, 6], [4, 5], [4, 0]]] },
  V: { w: 4, lines: [[[0, 0], [2, 6], [4, 0]]] },
  W: { w: 5, lines: [[[0, 0], [1.2, 6], [2.5, 2.5], [3.8, 6], [5, 0]]] },
  X: { w: 4, lines: [[[0, 0], [4, 6]], [[4, 0], [0, 6]]] },
  Y: { w: 4, lines: [[[0, 0], [2, 3], [4, 0]], [[2, 3], [2, 6]]] },
  Z: { w: 4, lines: [[[0, 0], [4, 0], [0, 6], [4, 6]]] },
};

/** Horizontal squeeze of the grid (glyphs are 4 × 6 units, drawn 3.2 wide). */
const X_SCALE = 0.8;
/** Space between glyphs, in units (the stroke's round caps take part of it). */
const SPACING = 1.5;
/** Stroke width in units (of the 6-unit cap height). */
export const STROKE_UNITS = 0.95;

const glyphOf = (ch: string): Glyph => GLYPHS[ch] ?? GLYPHS[ch.toUpperCase()] ?? GLYPHS['?'];

/** Width of `text` in the stroke font, in units of cap height / 6, from the first stroke's left edge to the last one's right edge. */
export function strokeTextUnits(text: string): number {
  let w = 0;
  const chars = [...text];
  chars.forEach((ch, i) => (w += glyphOf(ch).w * X_SCALE + (i < chars.length - 1 ? SPACING : 0)));
  return w + STROKE_UNITS;
}

/** Helvetica-Bold advance widths (1/1000 em) of the characters the stroke font draws. */
const HELVETICA_BOLD: Record<string, number> = { '#': 556, '·': 278, '/': 278, '-': 333, '.': 278, _: 556, ' ': 278, '?': 611 };
for (const d of '0123456789') HELVETICA_BOLD[d] = 556;
const CAPS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const CAP_WIDTHS = [722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611];
CAPS.split('').forEach((c, i) => (HELVETICA_BOLD[c] = CAP_WIDTHS[i]));
/** Helvetica's cap height, in em. */
export const HELVETICA_CAP_HEIGHT = 0.718;

/** The text as both fonts draw it: capitals, and "?" for characters the stroke font lacks. */
export function labelCharacters(text: string): string {
  return [...text].map((ch) => (GLYPHS[ch] ? ch : GLYPHS[ch.toUpperCase()] ? ch.toUpperCase() : '?')).join('');
}

/** Width of `text` in Helvetica-Bold, in em. */
export function helveticaBoldEm(text: string): number {
  return [...labelCharacters(text)].reduce((a, ch) => a + (HELVETICA_BOLD[ch] ?? 611), 0) / 1000;
}

/** Width of `text` in whichever font is wider, for a cap height of `capHeight` (any unit). */
export function labelTextWidth(text: string, capHeight: number): number {
  return Math.max(strokeTextUnits(text) * (capHeight / 6), helveticaBoldEm(text) * (capHeight / HELVETICA_CAP_HEIGHT));
}

type Seg = [number, number, number, number];

/** The text's stroke segments in pixels, its stroke's left edge at x0 and the baseline at y0. */
function textSegments(text: string, capPx: number, x0: number, y0: number): Seg[] {
  const u = capPx / 6;
  const segs: Seg[] = [];
  let pen = x0 + (STROKE_UNITS / 2) * u;
  for (const ch of labelCharacters(text)) {
    const g = glyphOf(ch);
    for (const line of g.lines) {
      const pts = line.map(([x, y]) => [pen + x * X_SCALE * u, y0 - (6 - y) * u] as const);
      if (pts.length === 1) segs.push([pts[0][0], pts[0][1], pts[0][0], pts[0][1]]);
      for (let i = 1; i < pts.length; i++) segs.push([pts[i - 1][0], pts[i - 1][1], pts[i][0], pts[i][1]]);
    }
    pen += (g.w * X_SCALE + SPACING) * u;
  }
  return segs;
}

function distToSeg(px: number, py: number, s: Seg): number {
  const [ax, ay, bx, by] = s;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  const cx = ax + t * dx - px;
  const cy = ay + t * dy - py;
  return Math.sqrt(cx * cx + cy * cy);
}

/**
 * Coverage (0..255) of `text` stroked into a w × h grey mask, centred, with a cap height of
 * `capPx` pixels. Each pixel's coverage is how far inside the stroke its centre lies
 * (a one-pixel ramp), which anti-aliases the edges.
 */
export function rasterizeText(text: string, w: number, h: number, capPx: number): Uint8Array {
  const tw = strokeTextUnits(text) * (capPx / 6);
  const x0 = (w - tw) / 2;
  const y0 = (h + capPx) / 2;
  return strokeCoverage(textSegments(text, capPx, x0, y0), w, h, capPx);
}

/**
 * rasterizeText with the text turned by `angle` radians (clockwise on the image, whose y grows
 * downwards) about the centre of the mask: the watermark of a test print's sheets.
 */
export function rasterizeTurnedText(text: string, w: number, h: number, capPx: number, angle: number): Uint8Array {
  const tw = strokeTextUnits(text) * (capPx / 6);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const turn = (x: number, y: number): [number, number] => [w / 2 + x * cos - y * sin, h / 2 + x * sin + y * cos];
  const segs = textSegments(text, capPx, -tw / 2, capPx / 2).map(([ax, ay, bx, by]): Seg => [...turn(ax, ay), ...turn(bx, by)]);
  return strokeCoverage(segs, w, h, capPx);
}

/** Coverage (0..255) of stroke segments of a cap height of `capPx` in a w × h grey mask. */
function strokeCoverage(segs: readonly Seg[], w: number, h: number, capPx: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const half = (STROKE_UNITS * capPx) / 12;
  for (const s of segs) {
    const minX = Math.max(0, Math.floor(Math.min(s[0], s[2]) - half - 1));
    const maxX = Math.min(w - 1, Math.ceil(Math.max(s[0], s[2]) + half + 1));
    const minY = Math.max(0, Math.floor(Math.min(s[1], s[3]) - half - 1));
    const maxY = Math.min(h - 1, Math.ceil(Math.max(s[1], s[3]) + half + 1));
    for (let y = minY; y <= maxY; y++)
      for (let x = minX; x <= maxX; x++) {
        const c = Math.round(Math.max(0, Math.min(1, half + 0.5 - distToSeg(x + 0.5, y + 0.5, s))) * 255);
        if (c > out[y * w + x]) out[y * w + x] = c;
      }
  }
  return out;
}
