import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { draftSettings, MANUAL_DRAFT_PREFIX, readManualDraft, useManualDraft, writeManualDraft } from "./manualDraft";
import type { DraftItem } from "./manualDraft";

const line: DraftItem = { key: "i1:s1", image: { _id: "i1", name: "Art" }, size: { _id: "s1", name: "Front", value: 10 }, quantity: 3 };
const settings = { width: 13, maxLength: 50, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: "box" as const, formats: ["png" as const] };

describe("manual print draft", () => {
  afterEach(() => localStorage.clear());

  it("is kept per user in localStorage (a new tab or a reload finds it) and removed when empty", () => {
    writeManualDraft("u1", { items: [line], settings });
    expect(readManualDraft("u1")).toEqual({ items: [line], settings });
    expect(readManualDraft("u2")).toEqual({ items: [], settings: undefined });
    writeManualDraft("u1", { items: [] });
    expect(localStorage.getItem(`${MANUAL_DRAFT_PREFIX}u1`)).toBeNull();
  });

  it("ignores broken or foreign content", () => {
    localStorage.setItem(`${MANUAL_DRAFT_PREFIX}u1`, "{not json");
    expect(readManualDraft("u1").items).toEqual([]);
    localStorage.setItem(`${MANUAL_DRAFT_PREFIX}u1`, JSON.stringify({ items: [line, { key: "x" }, null] }));
    expect(readManualDraft("u1").items).toEqual([line]);
  });

  it("the hook loads the user's draft once the user is known, then saves every change", () => {
    writeManualDraft("u1", { items: [line] });
    const { result, rerender } = renderHook(({ id }) => useManualDraft(id), { initialProps: { id: undefined as string | undefined } });
    expect(result.current.loaded).toBe(false);
    // Not known yet: nothing is written over the stored draft.
    expect(readManualDraft("u1").items).toEqual([line]);
    rerender({ id: "u1" });
    expect(result.current).toMatchObject({ loaded: true, draft: { items: [line] } });
    act(() => result.current.setDraft((d) => ({ ...d, items: [{ ...line, quantity: 5 }], settings })));
    expect(readManualDraft("u1")).toEqual({ items: [{ ...line, quantity: 5 }], settings });
  });

  it("uses the draft's settings, filling a field it predates (nesting) from the saved settings", () => {
    const saved = { width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: "box" as const, formats: ["pdf" as const] };
    expect(draftSettings({ items: [] }, saved)).toBe(saved);
    expect(draftSettings({ items: [], settings }, saved)).toEqual(settings);
    const old = { width: 13, maxLength: 50, gap: 0.25, margin: 0.25, dpi: 300, rotate: true } as unknown as typeof settings;
    expect(draftSettings({ items: [], settings: old }, saved)).toEqual({ ...old, nesting: "box", formats: ["pdf"] });
    expect(draftSettings({ items: [], settings: old }, undefined)).toBe(old);
  });
});
