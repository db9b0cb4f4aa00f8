/**
 * The strip-packing benchmark file format (shared/bench-data/strip beside the checkout, see docs/gangsheet.md): first line n,
 * second line `W [H]`, then n lines `w h` (column 1 is the size along the strip width).
 */
export interface StripInstance {
  width: number;
  /** Height of the generator's perfect packing, when the file gives it. */
  generatorHeight?: number;
  pieces: { w: number; h: number }[];
}

export function parseStripInstance(text: string): StripInstance {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const num = (s: string, what: string): number => {
    const v = Number(s);
    if (!Number.isFinite(v) || v < 0) throw new Error(`invalid ${what}: "${s}"`);
    return v;
  };
  if (lines.length < 2) throw new Error('benchmark file needs at least two lines (n, then W [H])');
  const n = num(lines[0], 'piece count');
  if (!Number.isInteger(n)) throw new Error(`invalid piece count: "${lines[0]}"`);
  const head = lines[1].split(/\s+/);
  const width = num(head[0], 'strip width');
  const generatorHeight = head[1] !== undefined ? num(head[1], 'strip height') : undefined;
  if (lines.length - 2 < n) throw new Error(`file announces ${n} pieces but has ${lines.length - 2} piece lines`);
  const pieces = lines.slice(2, 2 + n).map((l, i) => {
    const [w, h] = l.split(/\s+/);
    if (h === undefined) throw new Error(`piece line ${i + 1}: expected "w h"`);
    return { w: num(w, `width on piece line ${i + 1}`), h: num(h, `height on piece line ${i + 1}`) };
  });
  return { width, generatorHeight, pieces };
}
