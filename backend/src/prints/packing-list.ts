/**
 * The packing list of a print made from shop orders, as a PDF (US Letter): per sheet a page
 * with a map of the sheet (every copy's rectangle with its position number), then a table by
 * order: order number, buyer, ship-to country, and each item with its size, copies and
 * positions ("S1: 3, 7"). Positions are numbered per sheet in reading order (top to bottom,
 * then left to right); an item's positions are listed in the order its order labels count
 * ("1/3" is the first), see readingRanks.
 *
 * Written with the engine's small PDF writer: text in the standard Helvetica fonts (nothing
 * embedded), rectangles and lines; a table needs nothing more.
 */
import { readingRanks } from '../gangsheet';
import { ByteSink } from '../gangsheet/render/byte-sink';
import { PdfWriter, pdfNum } from '../gangsheet/render/pdf-writer';

export interface PackingSheet {
  /** 1-based. */
  n: number;
  /** Inches. */
  width: number;
  length: number;
  placements: { itemId: string; copy: number; x: number; y: number; width: number; height: number }[];
}

export interface PackingItem {
  itemId: string;
  title: string;
  size: string;
  copies: number;
}

export interface PackingOrder {
  number: string;
  buyer: string;
  country: string;
  items: PackingItem[];
}

export interface PackingListInput {
  title: string;
  sheets: PackingSheet[];
  orders: PackingOrder[];
}

const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN = 40;

/** Helvetica advance widths (1/1000 em) of the printable ASCII characters, from space. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667,
  667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Letters with no accent to drop that have a plain Latin look-alike. */
const LOOKALIKE: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Œ: 'OE', œ: 'oe', ı: 'i', '’': "'", '‘': "'", '“': '"', '”': '"', '–': '-', '—': '-' };

/** Text as WinAnsi (Latin-1) characters: accents kept where Latin-1 has them, others dropped, the rest "?". */
export function winAnsi(text: string): string {
  return [...String(text ?? '')]
    .map((ch) => {
      const c = ch.codePointAt(0)!;
      if (c < 0x20) return ' ';
      if (c < 0x7f || (c >= 0xa0 && c <= 0xff)) return ch;
      if (LOOKALIKE[ch]) return LOOKALIKE[ch];
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return base.length === 1 && base.charCodeAt(0) < 0x7f ? base : '?';
    })
    .join('');
}

/** Width of (WinAnsi) text in points; bold is a little wider. */
export function textWidth(text: string, size: number, bold = false): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    w += c >= 32 && c <= 126 ? HELVETICA[c - 32] : 556;
  }
  return (w / 1000) * size * (bold ? 1.07 : 1);
}

/** Text cut with "..." to fit `max` points. */
function fit(text: string, size: number, max: number, bold = false): string {
  const t = winAnsi(text);
  if (textWidth(t, size, bold) <= max) return t;
  let s = t;
  while (s.length > 0 && textWidth(`${s}...`, size, bold) > max) s = s.slice(0, -1);
  return `${s}...`;
}

const str = (t: string) => `(${t.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** One page's content, drawn top-down (y from the page's top edge). */
class Page {
  readonly ops: string[] = [];
  text(x: number, top: number, text: string, size: number, bold = false): void {
    this.ops.push(`BT /${bold ? 'F2' : 'F1'} ${pdfNum(size)} Tf ${pdfNum(x)} ${pdfNum(PAGE_H - top - size * 0.8)} Td ${str(text)} Tj ET`);
  }
  rect(x: number, top: number, w: number, h: number, opts: { fill?: number; stroke?: number; lineWidth?: number }): void {
    const path = `${pdfNum(x)} ${pdfNum(PAGE_H - top - h)} ${pdfNum(w)} ${pdfNum(h)} re`;
    const parts = ['q'];
    if (opts.fill !== undefined) parts.push(`${pdfNum(opts.fill)} g`);
    if (opts.stroke !== undefined) parts.push(`${pdfNum(opts.stroke)} G ${pdfNum(opts.lineWidth ?? 0.5)} w`);
    parts.push(path, opts.fill !== undefined && opts.stroke !== undefined ? 'B' : opts.fill !== undefined ? 'f' : 'S', 'Q');
    this.ops.push(parts.join(' '));
  }
  line(x0: number, top: number, x1: number, lineWidth = 0.5, grey = 0.6): void {
    this.ops.push(`q ${pdfNum(grey)} G ${pdfNum(lineWidth)} w ${pdfNum(x0)} ${pdfNum(PAGE_H - top)} m ${pdfNum(x1)} ${pdfNum(PAGE_H - top)} l S Q`);
  }
}

/** Position numbers: per sheet, reading order (1-based); and each item's copies as "S<n>: p, q" in label order. */
export function positions(sheets: readonly PackingSheet[]) {
  const number = new Map<string, { sheet: number; pos: number }>();
  for (const s of sheets) {
    const order = [...s.placements].sort((a, b) => a.y - b.y || a.x - b.x);
    order.forEach((p, i) => number.set(`${p.itemId}#${p.copy}`, { sheet: s.n, pos: i + 1 }));
  }
  const ranks = readingRanks(sheets.flatMap((s) => s.placements.map((p) => ({ sheet: s.n, designId: p.itemId, copy: p.copy, x: p.x, y: p.y, height: p.height }))));
  const byItem = new Map<string, { sheet: number; pos: number; rank: number }[]>();
  for (const [key, at] of number) {
    const itemId = key.slice(0, key.lastIndexOf('#'));
    byItem.set(itemId, [...(byItem.get(itemId) ?? []), { ...at, rank: ranks.get(key) ?? 0 }]);
  }
  const listed = new Map<string, string>();
  for (const [itemId, list] of byItem) {
    list.sort((a, b) => a.rank - b.rank);
    const parts: string[] = [];
    for (const p of list) {
      const last = parts.length ? parts[parts.length - 1] : '';
      if (last.startsWith(`S${p.sheet}:`)) parts[parts.length - 1] = `${last}, ${p.pos}`;
      else parts.push(`S${p.sheet}: ${p.pos}`);
    }
    listed.set(itemId, parts.join('; '));
  }
  return { number, listed };
}

function mapPage(s: PackingSheet, sheets: number, title: string, number: Map<string, { sheet: number; pos: number }>): Page {
  const page = new Page();
  page.text(MARGIN, MARGIN, fit(`${title} - packing list`, 14, PAGE_W - 2 * MARGIN, true), 14, true);
  page.text(MARGIN, MARGIN + 20, `Sheet ${s.n} of ${sheets}: ${+s.width.toFixed(2)} x ${+s.length.toFixed(2)} in, ${s.placements.length} ${s.placements.length === 1 ? 'copy' : 'copies'}`, 10);
  const top = MARGIN + 44;
  const availW = PAGE_W - 2 * MARGIN;
  const availH = PAGE_H - top - MARGIN;
  const k = Math.min(availW / s.width, availH / Math.max(s.length, 0.01));
  const ox = MARGIN + (availW - s.width * k) / 2;
  page.rect(ox, top, s.width * k, s.length * k, { stroke: 0, lineWidth: 0.8 });
  for (const p of s.placements) {
    const x = ox + p.x * k;
    const y = top + p.y * k;
    const w = p.width * k;
    const h = p.height * k;
    page.rect(x, y, w, h, { fill: 0.92, stroke: 0.35, lineWidth: 0.4 });
    const label = String(number.get(`${p.itemId}#${p.copy}`)?.pos ?? '');
    const size = Math.max(3, Math.min(12, h * 0.6, (w * 0.85) / Math.max(1, textWidth(label, 1, true))));
    page.text(x + (w - textWidth(label, size, true)) / 2, y + (h - size * 0.72) / 2 - size * 0.1, label, size, true);
  }
  return page;
}

const COLUMNS = [
  { key: 'order', title: 'Order', w: 62 },
  { key: 'buyer', title: 'Buyer', w: 100 },
  { key: 'country', title: 'Ship to', w: 42 },
  { key: 'item', title: 'Item', w: 130 },
  { key: 'size', title: 'Size', w: 56 },
  { key: 'copies', title: 'Copies', w: 40 },
  { key: 'positions', title: 'Positions', w: PAGE_W - 2 * MARGIN - 430 },
] as const;

function tablePages(input: PackingListInput, listed: Map<string, string>): Page[] {
  const pages: Page[] = [];
  const size = 8.5;
  const rowH = 13;
  let page!: Page;
  let y = 0;
  const header = (first: boolean) => {
    page = new Page();
    pages.push(page);
    y = MARGIN;
    if (first) {
      page.text(MARGIN, y, fit(`${input.title} - orders`, 14, PAGE_W - 2 * MARGIN, true), 14, true);
      y += 24;
    }
    let x = MARGIN;
    for (const c of COLUMNS) {
      page.text(x, y, c.title, size, true);
      x += c.w;
    }
    y += rowH;
    page.line(MARGIN, y - 2, PAGE_W - MARGIN, 0.8, 0);
  };
  header(true);
  for (const o of input.orders) {
    const rows = o.items.map((it, i) => ({
      order: i === 0 ? `#${String(o.number).replace(/^#/, '')}` : '',
      buyer: i === 0 ? o.buyer : '',
      country: i === 0 ? o.country : '',
      item: it.title,
      size: it.size,
      copies: String(it.copies),
      positions: listed.get(it.itemId) ?? '-',
    }));
    // wrap the positions column over as many lines as it needs
    const lines = rows.map((r) => wrap(winAnsi(r.positions), size, COLUMNS[6].w - 4));
    const height = lines.reduce((a, l) => a + l.length * rowH, 0);
    if (y + height > PAGE_H - MARGIN && y > MARGIN + 2 * rowH) header(false);
    rows.forEach((r, i) => {
      if (y + rowH > PAGE_H - MARGIN) header(false);
      let x = MARGIN;
      for (const c of COLUMNS) {
        if (c.key === 'positions') lines[i].forEach((l, j) => page.text(x, y + j * rowH, l, size));
        else page.text(x, y, fit(r[c.key], size, c.w - 4, c.key === 'order'), size, c.key === 'order');
        x += c.w;
      }
      y += lines[i].length * rowH;
    });
    page.line(MARGIN, y - 2, PAGE_W - MARGIN);
  }
  return pages;
}

function wrap(text: string, size: number, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size) > max) {
      out.push(line);
      line = word;
    } else line = next;
  }
  out.push(line);
  return out;
}

/** The packing list as PDF bytes. */
export async function packingListPdf(input: PackingListInput): Promise<Buffer> {
  const { number, listed } = positions(input.sheets);
  const pages = [...input.sheets.map((s) => mapPage(s, input.sheets.length, input.title, number)), ...tablePages(input, listed)];
  const chunks: Buffer[] = [];
  // the writer may reuse a buffer once written: keep copies
  const sink: ByteSink = { write: async (b) => void chunks.push(Buffer.from(b)), finish: async () => undefined, abort: async () => undefined };
  const pdf = await PdfWriter.create(sink);
  const catalog = pdf.alloc();
  const pagesObj = pdf.alloc();
  const f1 = pdf.alloc();
  const f2 = pdf.alloc();
  await pdf.object(f1, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  await pdf.object(f2, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const p of pages) {
    const content = pdf.alloc();
    await pdf.stream(content, '', (put) => put(Buffer.from(p.ops.join('\n'), 'latin1')));
    const obj = pdf.alloc();
    await pdf.object(obj, `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R >> >> /Contents ${content} 0 R >>`);
    kids.push(obj);
  }
  await pdf.object(pagesObj, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  await pdf.object(catalog, `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`);
  await pdf.finish(catalog);
  return Buffer.concat(chunks);
}
