/**
 * A seller's edited layout (`prints.edited_layout`): where every copy of a draft print goes,
 * which copies are pinned, and what it was made for (the layout settings and the items). It is
 * the contract for preview, cost and processing while it still matches the print: the job
 * hands every copy to the engine as a fixed placement, so the files hold each copy exactly
 * where it was saved. Once the items or the layout settings change it is replaced: the
 * copies are laid out again around the pinned copies that still exist (see `layoutPlan`).
 *
 * Pure functions over plain data: the check runs in the CPU pool (engine.adapter).
 */
import { designPixelSize, FixedPlacement, FixedPlacementError, footprintOf, layoutSheets, LayoutDesign, onSheet, SheetSettings } from '../gangsheet';
import { SheetSettingsValues } from '../sheet-settings/entities/sheet-settings.entity';
import type { EngineDesign } from './engine.adapter';

export type Rotation = 0 | 90 | 180 | 270;

/** One copy as the editor places it: the print item, which of its copies, sheet, art's top-left (inches) and turn. */
export interface LayoutCopy {
  itemId: string;
  /** 0-based, below the item's quantity. */
  copy: number;
  /** 0-based sheet. */
  sheet: number;
  x: number;
  y: number;
  rotation: Rotation;
  pinned: boolean;
}

/** The settings a layout depends on (not the output formats); order labels change the copies' footprints. */
export type LayoutSettings = Omit<SheetSettingsValues, 'formats'>;

/** What a layout was made for: each item's design file, printed width and quantity. */
export interface LayoutBasisItem {
  itemId: string;
  file: string;
  width: number;
  quantity: number;
}

export interface EditedLayout {
  settings: LayoutSettings;
  basis: LayoutBasisItem[];
  copies: LayoutCopy[];
  savedAt: string;
}

export const layoutSettings = (s: LayoutSettings): LayoutSettings => ({
  width: Number(s.width),
  maxLength: Number(s.maxLength),
  gap: Number(s.gap),
  margin: Number(s.margin),
  dpi: Number(s.dpi),
  rotate: !!s.rotate,
  nesting: s.nesting === 'box' ? 'box' : 'shape',
  orderLabels: typeof s.orderLabels === 'boolean' ? s.orderLabels : null,
});

export const layoutBasis = (designs: readonly Pick<EngineDesign, 'id' | 'file' | 'width' | 'quantity'>[]): LayoutBasisItem[] =>
  designs.map((d) => ({ itemId: d.id, file: d.file, width: d.width, quantity: d.quantity }));

const sameSettings = (a: LayoutSettings, b: LayoutSettings) => (Object.keys(a) as (keyof LayoutSettings)[]).every((k) => a[k] === b[k]);
const basisKey = (b: readonly LayoutBasisItem[]) =>
  b
    .map((i) => `${i.itemId}|${i.file}|${i.width}|${i.quantity}`)
    .sort()
    .join('\n');

/**
 * How a print is laid out: `auto` (no edited layout: the engine's search), `saved` (the edited
 * layout, every copy fixed where it was saved) or `replaced` (the items or settings changed
 * since the edit: the search lays the copies out around the pinned copies that still exist;
 * if those no longer fit together, without them).
 */
export type LayoutPlan =
  | { state: 'auto'; fixed: [] ; pinned: [] }
  | { state: 'saved'; fixed: FixedPlacement[]; pinned: LayoutCopy[]; edited: EditedLayout }
  | { state: 'replaced'; fixed: FixedPlacement[]; pinned: LayoutCopy[]; edited: EditedLayout };

export function layoutPlan(edited: EditedLayout | null | undefined, designs: readonly EngineDesign[], settings: LayoutSettings): LayoutPlan {
  if (!edited?.copies?.length) return { state: 'auto', fixed: [], pinned: [] };
  const current = layoutSettings(settings);
  if (sameSettings(layoutSettings(edited.settings), current) && basisKey(edited.basis) === basisKey(layoutBasis(designs)))
    return { state: 'saved', fixed: edited.copies.map(toFixed), pinned: edited.copies.filter((c) => c.pinned), edited };
  // a pinned copy stays pinned while its item still has that copy of the same design at the same size
  const was = new Map(edited.basis.map((b) => [b.itemId, b]));
  const pinned = edited.copies.filter((c) => {
    if (!c.pinned) return false;
    const d = designs.find((x) => x.id === c.itemId);
    const b = was.get(c.itemId);
    return !!d && !!b && b.file === d.file && b.width === d.width && c.copy < d.quantity && (current.rotate || c.rotation % 180 === 0);
  });
  return { state: 'replaced', fixed: pinned.map(toFixed), pinned, edited };
}

export const toFixed = (c: LayoutCopy): FixedPlacement => ({ designId: c.itemId, copy: c.copy, sheet: c.sheet, x: c.x, y: c.y, rotation: c.rotation });

export const REPLACED_MESSAGE = (pinned: number) =>
  `The items or sheet settings changed since the layout was edited, so it was laid out again${pinned ? ` around the ${pinned} pinned ${pinned === 1 ? 'copy' : 'copies'}` : ''}. Edit and save the layout again to keep changes.`;

/** A copy named in a problem. */
export interface CopyRef {
  itemId: string;
  copy: number;
}

export type LayoutProblemCode = 'unknown_copy' | 'duplicate_copy' | 'missing_copy' | 'rotation' | 'outside_margins' | 'beyond_length' | 'too_close' | 'invalid';

export interface LayoutProblem {
  code: LayoutProblemCode;
  copies: CopyRef[];
  message: string;
}

/** The designs as the check needs them (an EngineDesign has all of this). */
export type CheckDesign = Pick<EngineDesign, 'id' | 'trim' | 'width' | 'quantity' | 'mask' | 'label'>;

const layoutDesign = (d: CheckDesign, quantity = d.quantity): LayoutDesign => ({
  id: d.id,
  widthPx: d.trim.width,
  heightPx: d.trim.height,
  width: d.width,
  quantity,
  mask: d.mask ?? undefined,
  label: d.label ?? undefined,
});

/** A copy's rectangle on its sheet in whole pixels, as the engine places it (its rounding rule). */
export function copyBox(d: CheckDesign, c: Pick<LayoutCopy, 'x' | 'y' | 'rotation'>, dpi: number) {
  const { w, h } = designPixelSize(layoutDesign(d), dpi);
  const turned = c.rotation % 180 !== 0;
  return { x: Math.round(c.x * dpi), y: Math.round(c.y * dpi), w: turned ? h : w, h: turned ? w : h };
}

/**
 * A copy's footprint on its sheet in whole pixels: its box, and its order label's reserved
 * space when it has one (what must stay inside the margins and keep the gap to other copies).
 */
export function footprintBox(d: CheckDesign, c: Pick<LayoutCopy, 'x' | 'y' | 'rotation'>, dpi: number) {
  const art = copyBox(d, c, dpi);
  if (!d.label) return art;
  const fp = footprintOf(layoutDesign(d), designPixelSize(layoutDesign(d), dpi), (v) => Math.round(v * dpi));
  const at = onSheet(fp, fp.art, 0, 0, c.rotation);
  return onSheet(fp, { x: 0, y: 0, w: fp.w, h: fp.h }, art.x - at.x, art.y - at.y, c.rotation);
}

const MAX_LISTED = 50;

/**
 * Every problem of an edited layout, for the seller: each copy exactly once, a turn the
 * sheet allows, inside the margins and the sheet's length, and no two copies closer than the
 * gap. The last is the engine's own check of fixed copies (by box for "box" prints, by ink
 * for "shape" ones): the whole layout is handed to it with every copy fixed, as processing
 * does, and when it refuses, each pair whose boxes come closer than the gap is handed to it
 * alone to name the copies that collide. `names`: item id → what the seller calls it.
 */
export function checkLayout(designs: readonly CheckDesign[], settings: LayoutSettings, copies: readonly LayoutCopy[], names: Record<string, string> = {}): LayoutProblem[] {
  const given = layoutSettings(settings);
  const s = { ...given, nesting: effectiveNesting(designs, given, copies) };
  const dpi = s.dpi;
  const px = (v: number) => Math.round(v * dpi);
  const name = (r: CopyRef) => `copy ${r.copy + 1} of "${names[r.itemId] ?? r.itemId}"`;
  const problems: LayoutProblem[] = [];
  const byId = new Map(designs.map((d) => [d.id, d]));
  const seen = new Set<string>();
  const valid: Placed[] = [];
  for (const c of copies) {
    const d = byId.get(c.itemId);
    const ref = { itemId: c.itemId, copy: c.copy };
    if (!d || !Number.isInteger(c.copy) || c.copy < 0 || c.copy >= d.quantity) {
      problems.push({ code: 'unknown_copy', copies: [ref], message: `${d ? name(ref) : `Item ${c.itemId}`} is not part of this print.` });
      continue;
    }
    const key = `${c.itemId}#${c.copy}`;
    if (seen.has(key)) {
      problems.push({ code: 'duplicate_copy', copies: [ref], message: `${name(ref)} is placed more than once.` });
      continue;
    }
    seen.add(key);
    if (![0, 90, 180, 270].includes(c.rotation) || (!s.rotate && c.rotation % 180 !== 0)) {
      problems.push({ code: 'rotation', copies: [ref], message: `${name(ref)} is turned, but these sheet settings do not allow rotation.` });
      continue;
    }
    if (!Number.isInteger(c.sheet) || c.sheet < 0 || !Number.isFinite(c.x) || !Number.isFinite(c.y)) {
      problems.push({ code: 'invalid', copies: [ref], message: `${name(ref)} has no valid position.` });
      continue;
    }
    valid.push({ c, d, box: footprintBox(d, c, dpi) });
  }
  for (const d of designs)
    for (let k = 0; k < d.quantity; k++)
      if (!seen.has(`${d.id}#${k}`)) problems.push({ code: 'missing_copy', copies: [{ itemId: d.id, copy: k }], message: `${name({ itemId: d.id, copy: k })} is not on the sheet.` });
  const widthPx = px(s.width);
  const margin = px(s.margin);
  const lengthPx = px(s.maxLength);
  const inBounds: typeof valid = [];
  for (const v of valid) {
    const ref = { itemId: v.c.itemId, copy: v.c.copy };
    const { x, y, w, h } = v.box;
    if (x < margin || y < margin || x + w > widthPx - margin) problems.push({ code: 'outside_margins', copies: [ref], message: `${name(ref)} lies outside the sheet's margins.` });
    else if (y + h > lengthPx - margin) problems.push({ code: 'beyond_length', copies: [ref], message: `${name(ref)} runs beyond the sheet's maximum length of ${s.maxLength} in.` });
    else inBounds.push(v);
  }
  if (problems.length) return [...problems.slice(0, MAX_LISTED), ...collisions(inBounds, s, name)].slice(0, MAX_LISTED);
  // the whole layout, every copy fixed: what processing will hand the engine
  try {
    layoutSheets(
      designs.map((d) => layoutDesign(d)),
      s,
      { fixed: valid.map(({ c }) => toFixed(c)), timeLimitMs: 200, maxEvaluations: 50 },
    );
    return [];
  } catch (e) {
    if (!(e instanceof FixedPlacementError)) throw e;
    const listed = collisions(inBounds, s, name);
    return listed.length ? listed : [{ code: 'too_close', copies: [], message: `The layout cannot be printed: ${e.message}.` }];
  }
}

type Placed = { c: LayoutCopy; d: CheckDesign; box: { x: number; y: number; w: number; h: number } };

/** Pairs of copies on one sheet whose boxes come closer than `gap` pixels (a sweep over x). */
function closePairs(copies: readonly Placed[], gap: number, limit = Infinity): [Placed, Placed][] {
  const out: [Placed, Placed][] = [];
  const bySheet = new Map<number, Placed[]>();
  for (const v of copies) bySheet.set(v.c.sheet, [...(bySheet.get(v.c.sheet) ?? []), v]);
  for (const list of bySheet.values()) {
    const order = [...list].sort((a, b) => a.box.x - b.box.x);
    const open: Placed[] = [];
    for (const a of order) {
      for (let k = open.length - 1; k >= 0; k--) {
        const b = open[k];
        if (b.box.x + b.box.w + gap <= a.box.x) {
          open.splice(k, 1);
          continue;
        }
        if (a.box.y >= b.box.y + b.box.h + gap || b.box.y >= a.box.y + a.box.h + gap) continue;
        out.push([b, a]);
        if (out.length >= limit) return out;
      }
      open.push(a);
    }
  }
  return out;
}

/**
 * The nesting an edited layout is checked and processed with: "box" when every two copies'
 * boxes keep the gap (then the rectangle check is exact and the shape grid's rounding cannot
 * refuse copies the seller set exactly a gap apart), "shape" when the print nests by shape and
 * some boxes come closer (their ink must keep the gap).
 */
export function effectiveNesting(designs: readonly CheckDesign[], settings: LayoutSettings, copies: readonly LayoutCopy[]): 'box' | 'shape' {
  if (settings.nesting !== 'shape') return 'box';
  const byId = new Map(designs.map((d) => [d.id, d]));
  const placed = copies.flatMap((c) => (byId.has(c.itemId) ? [{ c, d: byId.get(c.itemId)!, box: footprintBox(byId.get(c.itemId)!, c, settings.dpi) }] : []));
  return closePairs(placed, Math.round(settings.gap * settings.dpi), 1).length ? 'shape' : 'box';
}

/** Pairs of copies closer than the gap, decided by the engine's fixed-copy check (see checkLayout). */
function collisions(copies: readonly Placed[], s: LayoutSettings, name: (r: CopyRef) => string): LayoutProblem[] {
  const out: LayoutProblem[] = [];
  for (const [a, b] of closePairs(copies, Math.round(s.gap * s.dpi))) {
    if (s.nesting === 'shape' && !engineRefuses(a, b, s)) continue;
    const refs = [a, b].map((v) => ({ itemId: v.c.itemId, copy: v.c.copy }));
    out.push({ code: 'too_close', copies: refs, message: `${name(refs[0])} and ${name(refs[1])} are closer than the ${s.gap} in gap.` });
    if (out.length >= MAX_LISTED) break;
  }
  return out;
}

/** The engine's verdict on two copies alone, both fixed where they are (same sheet settings). */
function engineRefuses(a: { c: LayoutCopy; d: CheckDesign }, b: { c: LayoutCopy; d: CheckDesign }, s: LayoutSettings): boolean {
  const same = a.d.id === b.d.id;
  const designs = same ? [layoutDesign(a.d, 2)] : [layoutDesign(a.d, 1), layoutDesign(b.d, 1)];
  const place = (v: { c: LayoutCopy }, copy: number): FixedPlacement => ({ ...toFixed(v.c), copy, sheet: 0 });
  const settings: SheetSettings = { ...s, maxLength: Infinity };
  try {
    layoutSheets(designs, settings, { fixed: [place(a, 0), place(b, same ? 1 : 0)], timeLimitMs: 20, maxEvaluations: 1 });
    return false;
  } catch (e) {
    if (e instanceof FixedPlacementError) return true;
    throw e;
  }
}

/** The engine call a plan makes (preview and processing alike); see layoutPlan. */
export async function layoutWithPlan(
  engine: { layout: (designs: readonly EngineDesign[], settings: SheetSettings, timeLimitMs: number, opts?: { signal?: AbortSignal; fixed?: readonly FixedPlacement[] }) => Promise<import('../gangsheet').LayoutResult> },
  designs: readonly EngineDesign[],
  settings: SheetSettings & LayoutSettings,
  plan: LayoutPlan,
  timeLimitMs: number,
  signal?: AbortSignal,
): Promise<import('../gangsheet').LayoutResult> {
  if (plan.state === 'saved') {
    // every copy fixed: nothing is searched, the short budget only bounds the film figures' rectangle layout
    const nesting = effectiveNesting(designs, settings, plan.edited.copies);
    return engine.layout(designs, { ...settings, nesting }, Math.min(timeLimitMs, SAVED_LAYOUT_MS), { signal, fixed: plan.fixed });
  }
  if (plan.state === 'replaced' && plan.fixed.length) {
    try {
      return await engine.layout(designs, settings, timeLimitMs, { signal, fixed: plan.fixed });
    } catch (e) {
      if (!(e instanceof FixedPlacementError)) throw e;
    }
  }
  return engine.layout(designs, settings, timeLimitMs, { signal });
}

/** Budget of the engine call that lays out a saved layout (every copy fixed). */
export const SAVED_LAYOUT_MS = 1_000;
