/**
 * A sheet template's slots: where each design of a saved layout went (its box as placed, its
 * turn), and how new artwork is put into them. Pure functions over plain data.
 */
export type Rotation = 0 | 90 | 180 | 270;

/** One slot: the box a copy covered on its sheet (inches, as placed: after its turn), and what it held. */
export interface TemplateSlot {
  /** 0-based sheet of the template. */
  sheet: number;
  /** Inches from the sheet's top-left corner to the box's top-left corner. */
  x: number;
  y: number;
  /** The box as placed (after the turn), inches. */
  width: number;
  height: number;
  rotation: Rotation;
  /** The design that was there (a hint for the seller), or null. */
  label: string | null;
  /** The size it was printed at: its name and printed width (inches, upright), or null. */
  sizeName: string | null;
  sizeValue: number | null;
}

/** What a slot is called in messages: "slot 2 ("back")". */
export const slotName = (slots: readonly TemplateSlot[], i: number) => `slot ${i + 1}${slots[i]?.label ? ` ("${slots[i].label}")` : ''}`;

/** A placed copy as a layout reports it (box as placed, inches) with the names to keep: a slot's fields. */
export type PlacedCopy = TemplateSlot;

/**
 * The slots of a layout's copies: all sheets, or one (`sheet`, which becomes the template's
 * only sheet). Ordered as a seller reads a sheet: by sheet, top to bottom, left to right.
 */
export function slotsFromCopies(copies: readonly PlacedCopy[], sheet?: number): TemplateSlot[] {
  const chosen = sheet === undefined ? copies : copies.filter((c) => c.sheet === sheet).map((c) => ({ ...c, sheet: 0 }));
  // sheets renumbered from 0 without holes
  const sheets = [...new Set(chosen.map((c) => c.sheet))].sort((a, b) => a - b);
  const index = new Map(sheets.map((s, i) => [s, i]));
  return chosen
    .map((c) => ({
      sheet: index.get(c.sheet)!,
      x: round4(c.x),
      y: round4(c.y),
      width: round4(c.width),
      height: round4(c.height),
      rotation: c.rotation,
      label: c.label,
      sizeName: c.sizeName,
      sizeValue: c.sizeValue,
    }))
    .sort((a, b) => a.sheet - b.sheet || a.y - b.y || a.x - b.x);
}

/** The sheet settings a template keeps (the layout's, without file formats). */
export interface TemplateSheet {
  width: number;
  maxLength: number;
  margin: number;
}

/** Slots that do not lie on the sheet (inside the margins, above the maximum length): one message each. */
export function slotsOffSheet(slots: readonly TemplateSlot[], s: TemplateSheet): { index: number; message: string }[] {
  const tol = 1e-6;
  return slots.flatMap((slot, i) => {
    if (slot.x < s.margin - tol || slot.y < s.margin - tol || slot.x + slot.width > s.width - s.margin + tol)
      return [{ index: i, message: `The ${slotName(slots, i)} lies outside the sheet's margins.` }];
    if (slot.y + slot.height > s.maxLength - s.margin + tol) return [{ index: i, message: `The ${slotName(slots, i)} runs beyond the sheet's maximum length of ${s.maxLength} in.` }];
    return [];
  });
}

/** A copy to put in a slot: which slot, the print item and copy, and the copy's upright size (inches, whole pixels). */
export interface SlotFill {
  slot: number;
  itemId: string;
  copy: number;
  width: number;
  height: number;
  name: string;
}

export interface SlotCopy {
  itemId: string;
  copy: number;
  sheet: number;
  x: number;
  y: number;
  rotation: Rotation;
  pinned: boolean;
}

/**
 * Each copy in its slot, turned as the slot was and centred in the slot's box (whole pixels
 * at `dpi`). A copy larger than its slot's box (by more than a pixel's rounding) is not
 * placed: it is listed with a message naming the slot, so the seller picks a smaller size.
 * Copies are pinned, so changing the print's items later re-nests around them.
 */
export function placeInSlots(slots: readonly TemplateSlot[], fills: readonly SlotFill[], dpi: number): { copies: SlotCopy[]; problems: { slot: number; message: string }[] } {
  const copies: SlotCopy[] = [];
  const problems: { slot: number; message: string }[] = [];
  const px = 1 / dpi + 1e-6;
  const snap = (v: number) => Math.round(v * dpi) / dpi;
  for (const f of fills) {
    const slot = slots[f.slot];
    const turned = slot.rotation % 180 !== 0;
    const w = turned ? f.height : f.width;
    const h = turned ? f.width : f.height;
    if (w > slot.width + px || h > slot.height + px) {
      problems.push({
        slot: f.slot,
        message: `"${f.name}" is ${fmt(w)} × ${fmt(h)} in as placed, larger than ${slotName(slots, f.slot)} (${fmt(slot.width)} × ${fmt(slot.height)} in). Pick a smaller size.`,
      });
      continue;
    }
    copies.push({
      itemId: f.itemId,
      copy: f.copy,
      sheet: slot.sheet,
      x: snap(slot.x + Math.max(0, slot.width - w) / 2),
      y: snap(slot.y + Math.max(0, slot.height - h) / 2),
      rotation: slot.rotation,
      pinned: true,
    });
  }
  return { copies, problems };
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const fmt = (v: number) => String(Math.round(v * 100) / 100);
