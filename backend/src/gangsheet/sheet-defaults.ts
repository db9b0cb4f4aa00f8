/**
 * The sheet a seller starts with: 22 in film (the common DTF roll), up to 100 in per sheet,
 * 0.25 in between copies and at the edges (printers and heat presses are least reliable at
 * the film edge), 300 DPI, rotation allowed, true-shape nesting (never longer than packing
 * rectangles: the layout falls back to them when they are shorter), print files as PNG only
 * (a seller may add or choose PDF). The app stores a seller's
 * own values and serves these to the client as the defaults; there is no other copy.
 *
 * `resolveSettings` fills a field a library caller leaves out with the layout's neutral
 * fallbacks instead (DEFAULT_SETTINGS: no length limit, no margin, rectangles), so the
 * engine's own tests and the CLI describe exactly the sheet they ask for.
 */
export const SHEET_DEFAULTS = {
  width: 22,
  maxLength: 100,
  gap: 0.25,
  margin: 0.25,
  dpi: 300,
  rotate: true,
  nesting: 'shape',
  formats: ['png'],
} as const satisfies {
  width: number;
  maxLength: number;
  gap: number;
  margin: number;
  dpi: number;
  rotate: boolean;
  nesting: 'shape' | 'box';
  formats: readonly ('png' | 'pdf')[];
};
