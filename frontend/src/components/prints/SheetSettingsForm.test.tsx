import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SheetPreset, SheetSettings } from "../../api/types";

// The form's data hooks: no presets, mutations that do nothing.
vi.mock("./api", () => {
  const idle = { mutate: vi.fn(), isPending: false };
  return {
    useSheetPresets: () => ({ data: [], isLoading: false }),
    usePresetMutations: () => ({ create: idle, remove: idle }),
    useSaveSheetSettings: () => idle,
  };
});

const { SheetSettingsForm, presetSettings } = await import("./SheetSettingsForm");

// antd renders slowly under jsdom on a busy machine
vi.setConfig({ testTimeout: 30_000 });

const base: SheetSettings = { width: 22, maxLength: 100, gap: 0.25, margin: 0.25, dpi: 300, rotate: true, nesting: "shape", formats: ["png"] };

describe("SheetSettingsForm: file format", () => {
  beforeEach(() => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false,
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("PNG by default; ticking PDF asks for both, PNG first", () => {
    const onChange = vi.fn();
    render(<SheetSettingsForm value={base} onChange={onChange} />);
    const formats = within(screen.getByTestId("formats"));
    expect(formats.getByLabelText("PNG")).toBeChecked();
    expect(formats.getByLabelText("PNG")).toBeDisabled(); // the only format cannot be unticked
    expect(formats.getByLabelText("PDF")).not.toBeChecked();
    fireEvent.click(formats.getByLabelText("PDF"));
    expect(onChange).toHaveBeenLastCalledWith({ ...base, formats: ["png", "pdf"] });
  });

  it("with both ticked either can be unticked; PDF alone keeps PDF ticked and locked", () => {
    const onChange = vi.fn();
    const { rerender } = render(<SheetSettingsForm value={{ ...base, formats: ["png", "pdf"] }} onChange={onChange} />);
    let formats = within(screen.getByTestId("formats"));
    expect(formats.getByLabelText("PNG")).toBeEnabled();
    fireEvent.click(formats.getByLabelText("PNG"));
    expect(onChange).toHaveBeenLastCalledWith({ ...base, formats: ["pdf"] });
    rerender(<SheetSettingsForm value={{ ...base, formats: ["pdf"] }} onChange={onChange} />);
    formats = within(screen.getByTestId("formats"));
    expect(formats.getByLabelText("PDF")).toBeChecked();
    expect(formats.getByLabelText("PDF")).toBeDisabled();
    expect(formats.getByLabelText("PNG")).toBeEnabled();
  });

  it("order labels: batches only by default (null), On or Off", () => {
    const onChange = vi.fn();
    render(<SheetSettingsForm value={base} onChange={onChange} />);
    const select = screen.getByTestId("order-labels");
    expect(within(select).getByText("Batches only")).toBeInTheDocument();
    fireEvent.mouseDown(within(select).getByRole("combobox"));
    fireEvent.click(screen.getByTitle("On"));
    expect(onChange).toHaveBeenLastCalledWith({ ...base, orderLabels: true });
  });

  it("a preset carries its formats", () => {
    const preset = { ...base, formats: ["pdf"], _id: "p", name: "PDF", createdAt: "", updatedAt: "" } as SheetPreset;
    expect(presetSettings(preset).formats).toEqual(["pdf"]);
  });
});
