// The layout editor's model: copies in inches on whole pixels at the sheet's DPI, and the
// checks the server makes (docs/prints.md "Edited layout"), so problems show in red at once.
// For "box" prints the gap check here is the server's exactly (boxes in whole pixels); for
// "shape" prints the ink decides, and the editor asks the server (POST …/layout/check).
import type { Layout, LayoutPlacement, Rotation, SheetSettings } from "../../../api/types";

export interface EditorCopy {
  /** `${itemId}#${n}`: stable while editing (new copies get fresh numbers). */
  key: string;
  itemId: string;
  imageId: string;
  /** Copy number as the server knows it; renumbered per item on save. */
  copy: number;
  sheet: number;
  /** Art's top-left, inches from the sheet's top-left. */
  x: number;
  y: number;
  /** Upright size of the art, inches (whole pixels at the DPI). */
  w: number;
  h: number;
  rotation: Rotation;
  pinned: boolean;
  /** The order label's space, in the design's upright frame (prints with order labels). */
  label?: EditorLabel;
}

/** An order label's space below the upright art: its size and the distance from the art, inches. */
export interface EditorLabel {
  w: number;
  h: number;
  offset: number;
}

/** A placement's label space in the upright frame (the layout reports it as turned with the copy). */
export function uprightLabel(p: Pick<LayoutPlacement, "x" | "y" | "width" | "height" | "rotation" | "label">): EditorLabel | undefined {
  const l = p.label;
  if (!l) return undefined;
  const turned = p.rotation % 180 !== 0;
  const offset = p.rotation === 0 ? l.y - (p.y + p.height) : p.rotation === 90 ? p.x - (l.x + l.width) : p.rotation === 180 ? p.y - (l.y + l.height) : l.x - (p.x + p.width);
  return { w: turned ? l.height : l.width, h: turned ? l.width : l.height, offset: Math.max(0, offset) };
}

/** Where a copy's label space lies, relative to its art's top-left as placed (turned with the copy), inches. */
export function labelBox(c: Pick<EditorCopy, "w" | "h" | "rotation" | "label">) {
  const l = c.label;
  if (!l) return null;
  const along = (c.w - l.w) / 2;
  switch (c.rotation) {
    case 90:
      return { x: -(l.offset + l.h), y: along, width: l.h, height: l.w };
    case 180:
      return { x: along, y: -(l.offset + l.h), width: l.w, height: l.h };
    case 270:
      return { x: c.h + l.offset, y: along, width: l.h, height: l.w };
    default:
      return { x: along, y: c.h + l.offset, width: l.w, height: l.h };
  }
}

/** The sheet settings a layout depends on (not the output formats). */
export type EditorSettings = Omit<SheetSettings, "formats">;

export type ProblemKind = "too_close" | "outside_margins" | "beyond_length";

export const NUDGE_IN = 1 / 16;
export const BIG_NUDGE_IN = 1 / 2;

/** The box a copy covers on its sheet (after its turn), inches. */
export function footprint(c: Pick<EditorCopy, "x" | "y" | "w" | "h" | "rotation">) {
  const turned = c.rotation % 180 !== 0;
  return { x: c.x, y: c.y, width: turned ? c.h : c.w, height: turned ? c.w : c.h };
}

/** A value in inches on the DPI's whole pixels (what the engine prints). */
export const snap = (v: number, dpi: number) => Math.round(v * dpi) / dpi;

/** The editor's copies from a preview's layout: upright sizes from the placed ones. */
export function copiesFromLayout(layout: Pick<Layout, "sheets">): EditorCopy[] {
  return layout.sheets.flatMap((s) =>
    s.placements.map((p) => {
      const turned = p.rotation % 180 !== 0;
      return {
        key: `${p.itemId}#${p.copy}`,
        itemId: p.itemId,
        imageId: p.imageId,
        copy: p.copy,
        sheet: s.index,
        x: p.x,
        y: p.y,
        w: turned ? p.height : p.width,
        h: turned ? p.width : p.height,
        rotation: p.rotation,
        pinned: p.pinned,
        label: uprightLabel(p),
      };
    }),
  );
}

const px = (v: number, dpi: number) => Math.round(v * dpi);

/** The copy's box in whole pixels with its order label's space, as the server checks it. */
function pixelBox(c: EditorCopy, dpi: number) {
  const f = footprint(c);
  const w = px(c.w, dpi);
  const h = px(c.h, dpi);
  const turned = c.rotation % 180 !== 0;
  const art = { x: px(f.x, dpi), y: px(f.y, dpi), w: turned ? h : w, h: turned ? w : h };
  const lb = labelBox(c);
  if (!lb) return art;
  const l = { x: art.x + Math.floor(lb.x * dpi), y: art.y + Math.floor(lb.y * dpi), w: Math.max(1, px(lb.width, dpi)), h: Math.max(1, px(lb.height, dpi)) };
  const x0 = Math.min(art.x, l.x);
  const y0 = Math.min(art.y, l.y);
  return { x: x0, y: y0, w: Math.max(art.x + art.w, l.x + l.w) - x0, h: Math.max(art.y + art.h, l.y + l.h) - y0 };
}

/**
 * Every copy's problems: outside the margins, beyond the maximum length, and (for "box"
 * prints) closer than the gap to another copy, with the copies it is too close to.
 */
export function findProblems(copies: readonly EditorCopy[], s: EditorSettings, boxGap = s.nesting === "box"): Map<string, { kinds: Set<ProblemKind>; with: Set<string> }> {
  const out = new Map<string, { kinds: Set<ProblemKind>; with: Set<string> }>();
  const add = (key: string, kind: ProblemKind, other?: string) => {
    const e = out.get(key) ?? { kinds: new Set<ProblemKind>(), with: new Set<string>() };
    e.kinds.add(kind);
    if (other) e.with.add(other);
    out.set(key, e);
  };
  const widthPx = px(s.width, s.dpi);
  const margin = px(s.margin, s.dpi);
  const lengthPx = px(s.maxLength, s.dpi);
  const gap = px(s.gap, s.dpi);
  const boxes = copies.map((c) => ({ c, b: pixelBox(c, s.dpi) }));
  for (const { c, b } of boxes) {
    if (b.x < margin || b.y < margin || b.x + b.w > widthPx - margin) add(c.key, "outside_margins");
    else if (b.y + b.h > lengthPx - margin) add(c.key, "beyond_length");
  }
  if (!boxGap) return out;
  // sweep over x per sheet: only boxes whose x-range plus the gap is still open can be too close
  const bySheet = new Map<number, typeof boxes>();
  for (const e of boxes) bySheet.set(e.c.sheet, [...(bySheet.get(e.c.sheet) ?? []), e]);
  for (const list of bySheet.values()) {
    list.sort((a, b) => a.b.x - b.b.x);
    const open: typeof boxes = [];
    for (const a of list) {
      for (let k = open.length - 1; k >= 0; k--) {
        const o = open[k];
        if (o.b.x + o.b.w + gap <= a.b.x) {
          open.splice(k, 1);
          continue;
        }
        if (a.b.y >= o.b.y + o.b.h + gap || o.b.y >= a.b.y + a.b.h + gap) continue;
        add(a.c.key, "too_close", o.c.key);
        add(o.c.key, "too_close", a.c.key);
      }
      open.push(a);
    }
  }
  return out;
}

/** Whether one copy (being dragged) is too close to any other on its sheet, by box. */
export function tooCloseAny(c: EditorCopy, others: readonly EditorCopy[], s: EditorSettings): boolean {
  const gap = px(s.gap, s.dpi);
  const a = pixelBox(c, s.dpi);
  return others.some((o) => {
    if (o.key === c.key || o.sheet !== c.sheet) return false;
    const b = pixelBox(o, s.dpi);
    return !(b.x + b.w + gap <= a.x || a.x + a.w + gap <= b.x || b.y + b.h + gap <= a.y || a.y + a.h + gap <= b.y);
  });
}

/** Turned by another 90° clockwise about the copy's centre (kept on whole pixels). */
export function rotated(c: EditorCopy, dpi: number): EditorCopy {
  const f = footprint(c);
  const next = ((c.rotation + 90) % 360) as Rotation;
  const g = footprint({ ...c, rotation: next });
  return { ...c, rotation: next, x: snap(f.x + (f.width - g.width) / 2, dpi), y: snap(f.y + (f.height - g.height) / 2, dpi) };
}

/** How a copy is named to the seller: "copy 2 of logo". */
export const copyName = (c: Pick<EditorCopy, "copy">, name: string | undefined) => `copy ${c.copy + 1} of ${name ?? "a design"}`;

/** The copies as the API takes them, numbered 0..n-1 per item in the editor's order. */
export function toApiCopies(copies: readonly EditorCopy[]) {
  const next = new Map<string, number>();
  return copies.map((c) => {
    const copy = next.get(c.itemId) ?? 0;
    next.set(c.itemId, copy + 1);
    return { itemId: c.itemId, copy, sheet: c.sheet, x: c.x, y: c.y, rotation: c.rotation, pinned: c.pinned };
  });
}

/** Copies per item in the editor (to bring the items' quantities in line before saving). */
export function countsByItem(copies: readonly EditorCopy[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of copies) m.set(c.itemId, (m.get(c.itemId) ?? 0) + 1);
  return m;
}

/** Length of a sheet the editor shows: the used part and room to drag below it, within reason. */
export function shownLength(copies: readonly EditorCopy[], sheet: number, s: EditorSettings): number {
  const used = Math.max(0, ...copies.filter((c) => c.sheet === sheet).map((c) => footprint(c).y + footprint(c).height));
  return Math.max(6, Math.min(used + 4, Math.max(s.maxLength + 1, used + 1)));
}
