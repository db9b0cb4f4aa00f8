import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { User } from "../../api/types";
import { ProfileForm } from "./ProfileForm";

const userWith = (email: string, lastName = "Account") =>
  ({ _id: "u1", firstName: "Admin", lastName, username: "admin", email, company: null, phone: null, role: "admin" }) as unknown as User;

const submit = () => act(async () => fireEvent.click(screen.getByRole("button", { name: "Save changes" })));

describe("ProfileForm", () => {
  // antd's grid asks for media queries, which jsdom lacks.
  beforeEach(() => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false,
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("the default admin (admin@localhost) can save the profile as it is", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm user={userWith("admin@localhost")} onSubmit={onSubmit} confirmEmailChange />);
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([expect.objectContaining({ email: "admin@localhost", lastName: "Account" })]);
    expect(screen.queryByText("Invalid email address")).toBeNull();
  });

  it("still refuses what is not an e-mail address", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm user={userWith("a@example.com")} onSubmit={onSubmit} confirmEmailChange />);
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "not an address" } });
    await submit();
    await screen.findByText("Invalid email address");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("a changed e-mail asks for the current password and sends it", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm user={userWith("a@example.com")} onSubmit={onSubmit} confirmEmailChange />);
    expect(screen.queryByLabelText("Current password")).toBeNull();
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "b@example.com" } });
    await screen.findByLabelText("Current password");
    await submit();
    await screen.findByText("Enter your current password to change the e-mail");
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Current password"), { target: { value: "my-password" } });
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([expect.objectContaining({ email: "b@example.com", currentPassword: "my-password" })]);
  });
});
