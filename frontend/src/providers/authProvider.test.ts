import { afterEach, describe, expect, it, vi } from "vitest";
import { authProvider } from "./authProvider";
import { queryClient } from "./queryClient";
import { sessionHint } from "../lib/sessionHint";

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  sessionHint.clear();
});

describe("authProvider", () => {
  it("check asks GET /api/profile and logs out on 401", async () => {
    sessionHint.set();
    const fetch = mockFetch(401, { statusCode: 401, message: "Unauthorized" });
    expect(await authProvider.check()).toEqual({ authenticated: false, logout: true, redirectTo: "/" });
    expect(new URL((fetch.mock.calls[0] as unknown as [Request])[0].url).pathname).toBe("/api/profile");
    expect(sessionHint.get()).toBe(false);
  });
  it("check passes with a profile and remembers the session hint", async () => {
    mockFetch(200, { data: { _id: "u1", role: "user" } });
    expect(await authProvider.check()).toEqual({ authenticated: true });
    expect(sessionHint.get()).toBe(true);
  });
  it("login returns the server's reason on failure", async () => {
    mockFetch(403, { statusCode: 403, message: "Please verify your e-mail first", code: "email_not_verified" });
    const res = await authProvider.login({ email: "a@b.c", password: "x" });
    expect(res.success).toBe(false);
    expect(res.error?.message).toBe("Please verify your e-mail first");
  });
  it("login goes to the dashboard", async () => {
    mockFetch(200, { data: { _id: "u1" } });
    expect(await authProvider.login({ email: "a@b.c", password: "x" })).toEqual({ success: true, redirectTo: "/dashboard" });
  });
  it("onError logs out on 401 only", async () => {
    expect(await authProvider.onError({ statusCode: 401 })).toEqual({ logout: true, redirectTo: "/" });
    expect(await authProvider.onError({ statusCode: 403 })).toEqual({});
  });
});
