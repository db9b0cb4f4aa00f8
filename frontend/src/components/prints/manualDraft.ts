// The manual-create page's unsaved print (its lines and sheet settings), kept in
// localStorage per signed-in user: it survives a reload, a closed tab, a trip to /sizes and
// a new tab, until it is created or cleared. Chosen over a "leave this page?" prompt, which
// still loses the work when the seller confirms, or when the browser or machine closes.
import { useEffect, useState } from "react";
import type { DesignImage, PrintSize, SheetSettings } from "../../api/types";

/** A line of the manual-create table before the print exists. */
export interface DraftItem {
  key: string;
  image: DesignImage;
  size: PrintSize;
  quantity: number;
}

export interface ManualDraft {
  items: DraftItem[];
  settings?: SheetSettings;
}

export const MANUAL_DRAFT_PREFIX = "gs.manualPrint.";
const keyOf = (userId: string) => `${MANUAL_DRAFT_PREFIX}${userId}`;

export function readManualDraft(userId: string): ManualDraft {
  try {
    const raw = JSON.parse(localStorage.getItem(keyOf(userId)) ?? "null") as Partial<ManualDraft> | null;
    const items = Array.isArray(raw?.items) ? raw.items.filter((i) => i && i.key && i.image?._id && i.size?._id && i.quantity > 0) : [];
    return { items, settings: raw?.settings && typeof raw.settings === "object" ? raw.settings : undefined };
  } catch {
    return { items: [] };
  }
}

export function writeManualDraft(userId: string, draft: ManualDraft) {
  try {
    if (!draft.items.length && !draft.settings) localStorage.removeItem(keyOf(userId));
    else localStorage.setItem(keyOf(userId), JSON.stringify(draft));
  } catch {
    /* storage full or blocked: the draft lives for this page view only */
  }
}

/**
 * The settings the page uses: the draft's once the seller changed them here, else the saved
 * ones. A draft kept before a setting existed (nesting) takes that field from the saved ones.
 */
export function draftSettings(draft: ManualDraft, saved: SheetSettings | undefined): SheetSettings | undefined {
  if (!draft.settings) return saved;
  return saved ? { ...saved, ...draft.settings } : draft.settings;
}

export const clearManualDraft = (userId: string) => writeManualDraft(userId, { items: [] });

/**
 * The draft of `userId` (undefined until the profile is known): loaded once, then every
 * change is written back. `loaded` is false until it was read, so nothing overwrites it early.
 */
export function useManualDraft(userId: string | undefined) {
  const [draft, setDraft] = useState<ManualDraft>({ items: [] });
  const [loadedFor, setLoadedFor] = useState<string>();
  useEffect(() => {
    if (userId && userId !== loadedFor) {
      setDraft(readManualDraft(userId));
      setLoadedFor(userId);
    }
  }, [userId, loadedFor]);
  useEffect(() => {
    if (loadedFor) writeManualDraft(loadedFor, draft);
  }, [draft, loadedFor]);
  return { draft, setDraft, loaded: !!loadedFor && loadedFor === userId };
}
