import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { slotHint, slotSize, type SheetTemplate, type TemplateSlot } from "./api";
import { TemplateDrawing } from "./TemplateDrawing";

const slot = (o: Partial<TemplateSlot>): TemplateSlot => ({ sheet: 0, x: 1, y: 1, width: 2, height: 1.1875, rotation: 0, label: "front", sizeName: "Adult", sizeValue: 2, ...o });
const template: Pick<SheetTemplate, "name" | "settings" | "slots"> = {
  name: "Team set",
  settings: { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: "box", formats: ["png"] },
  slots: [slot({}), slot({ x: 5, y: 3, rotation: 90, label: "back" }), slot({ sheet: 1, label: null, sizeName: null, sizeValue: 3.5 })],
};

describe("templates", () => {
  it("says what a slot held and its size as placed", () => {
    expect(slotHint(template.slots[0])).toBe("front · Adult (2 in)");
    expect(slotHint(template.slots[2])).toBe("3.5 in");
    expect(slotSize(template.slots[0])).toBe("2 × 1.19 in");
  });

  it("draws each sheet and each numbered slot, with a label for screen readers", () => {
    render(<TemplateDrawing template={template} width={100} highlight={1} />);
    const svg = screen.getByRole("img", { name: "Team set: 3 slots on 2 10 in sheets" });
    // 2 sheets + 3 slots
    expect(svg.querySelectorAll("rect")).toHaveLength(5);
    expect([...svg.querySelectorAll("text")].map((t) => t.textContent)).toEqual(["1", "2", "3"]);
    // the second sheet starts below the first (cut at its lowest slot plus the margin, at least half as long as wide) and a gap
    const sheets = [...svg.querySelectorAll("rect")].slice(0, 2).map((r) => [Number(r.getAttribute("y")), Number(r.getAttribute("height"))]);
    expect(sheets[0]).toEqual([0, 5]);
    expect(sheets[1][0]).toBeCloseTo(5 + 0.6);
  });
});
