import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COPY_REVERT_MS, CopyLinkButton } from "./CopyLinkButton";

describe("CopyLinkButton", () => {
  afterEach(() => vi.useRealTimers());
  it("copies the absolute link and reverts its text after 2 s", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<CopyLinkButton url="/api/print/p1/files/0" />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: /copy link/i }));
    });
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/api/print/p1/files/0`);
    expect(screen.getByRole("button").textContent).toContain("Copied");
    act(() => vi.advanceTimersByTime(COPY_REVERT_MS - 1));
    expect(screen.getByRole("button").textContent).toContain("Copied");
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole("button").textContent).toContain("Copy link");
  });
});
