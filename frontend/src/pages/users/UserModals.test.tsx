import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Form } from "antd";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CreditField } from "./UserModals";

function renderField(onFinish: (v: { availableCredits: number }) => void) {
  render(
    <Form onFinish={onFinish}>
      <CreditField />
      <button type="submit">Save</button>
    </Form>,
  );
  return screen.getByLabelText("Available credits");
}

describe("the credit editor's balance field", () => {
  // jsdom has no matchMedia; antd's responsive form layout asks for it.
  beforeAll(() => {
    window.matchMedia ??= ((media: string) => ({ matches: false, media, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
  });
  afterEach(cleanup);

  it.each(["-5", "0", "2.5"])("refuses %s with a message and does not save", async (typed) => {
    const onFinish = vi.fn();
    const input = renderField(onFinish);
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.blur(input);
    fireEvent.click(screen.getByText("Save"));
    expect(await screen.findByText("Available credits must be a positive integer")).toBeTruthy();
    expect(onFinish).not.toHaveBeenCalled();
    // The typed value stays as typed (not clamped to 1 on blur), so the user sees what was refused.
    expect((input as HTMLInputElement).value).toBe(typed);
  });

  it("saves a positive whole number", async () => {
    const onFinish = vi.fn();
    const input = renderField(onFinish);
    fireEvent.change(input, { target: { value: "250" } });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(onFinish).toHaveBeenCalledWith({ availableCredits: 250 }));
  });
});
