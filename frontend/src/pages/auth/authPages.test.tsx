import { act, cleanup, render, screen } from "@testing-library/react";
import { RouterProvider, createMemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RouteObject } from "react-router";
import { GuestOnly } from "../../components/auth/Guards";
import { VerifyPage } from "./VerifyPage";
import { sessionHint } from "../../lib/sessionHint";

type Answer = { status: number; body: unknown };

/** Records every API call; answers from `answers` by path (default 404). */
function stubApi(answers: Record<string, Answer> = {}) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
      calls.push(url.pathname + url.search);
      const a = answers[url.pathname] ?? { status: 404, body: { statusCode: 404, message: "Not found" } };
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

// The routes as App.tsx wires them (the full App needs Refine's router binding, which
// vitest loads as a second copy of react-router).
const Page = ({ name }: { name: string }) => <p>{name} page</p>;
const routes: RouteObject[] = [
  { path: "/verify", element: <VerifyPage /> },
  { path: "/auth/signin", element: <GuestOnly redirectTo="/dashboard"><Page name="signin" /></GuestOnly> },
  { path: "/auth/signup", element: <GuestOnly redirectTo="/dashboard"><Page name="signup" /></GuestOnly> },
  { path: "/auth/forgot-password", element: <GuestOnly redirectTo="/auth/signin"><Page name="forgot" /></GuestOnly> },
  { path: "/dashboard", element: <Page name="dashboard" /> },
];

async function open(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  await act(() => new Promise((r) => setTimeout(r, 100)));
  return router;
}

describe("auth pages and /verify (no profile fetch, e-mail verification)", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionHint.clear();
  });

  it("/verify without a token stays idle and calls nothing", async () => {
    const calls = stubApi();
    await open("/verify");
    expect(screen.getByText("Verifying email...")).toBeInTheDocument();
    expect(screen.queryByText("Email verification failed")).toBeNull();
    expect(calls).toEqual([]);
  });

  it("/verify with a used link says already verified, and never fetches the profile", async () => {
    sessionHint.set();
    const calls = stubApi({ "/api/verify": { status: 200, body: { message: "Email already verified", alreadyVerified: true } } });
    await open("/verify?token=abc");
    expect(screen.getByText("Email already verified")).toBeInTheDocument();
    expect(screen.queryByText("Email verified successfully")).toBeNull();
    expect(calls).toEqual(["/api/verify?token=abc"]);
  });

  it("/verify with a fresh link says verified", async () => {
    stubApi({ "/api/verify": { status: 200, body: { message: "Email verified successfully", alreadyVerified: false } } });
    await open("/verify?token=abc");
    expect(screen.getAllByText("Email verified successfully").length).toBeGreaterThan(0);
  });

  it("/verify with the link confirming a new address says the address changed", async () => {
    stubApi({ "/api/verify": { status: 200, body: { message: "Email address changed", alreadyVerified: false } } });
    await open("/verify?token=abc");
    expect(screen.getAllByText("Email address changed").length).toBeGreaterThan(0);
    expect(screen.queryByText("Email verified successfully")).toBeNull();
  });

  it.each([
    ["/auth/signin", "signin"],
    ["/auth/forgot-password", "forgot"],
  ])("%s shows when signed out, without a request", async (path, name) => {
    const calls = stubApi();
    await open(path);
    expect(screen.getByText(`${name} page`)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it.each([
    ["/auth/signin", "/dashboard"],
    ["/auth/signup", "/dashboard"],
    // Via /auth/signin, which sends a signed-in browser on again.
    ["/auth/forgot-password", "/dashboard"],
  ])("a signed-in browser on %s is sent on without the auth page asking for the profile", async (path, to) => {
    sessionHint.set();
    const calls = stubApi({ "/api/profile": { status: 200, body: { data: { _id: "u1", role: "user" } } } });
    const router = await open(path);
    expect(router.state.location.pathname).toBe(to);
    expect(calls).toEqual([]);
  });
});
