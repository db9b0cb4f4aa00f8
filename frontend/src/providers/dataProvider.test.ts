import { afterEach, describe, expect, it, vi } from "vitest";
import { dataProvider, listQuery } from "./dataProvider";
import { buildQuery } from "../api/http";

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => vi.unstubAllGlobals());

describe("listQuery", () => {
  it("maps Refine's arguments to page, limit, sortBy, sort, search and filters", () => {
    const q = listQuery(
      { currentPage: 3, pageSize: 25 },
      [{ field: "email", order: "desc" }],
      [
        { field: "search", operator: "contains", value: "ann" },
        { field: "status", operator: "eq", value: "In Draft" },
        { field: "empty", operator: "eq", value: "" },
      ],
    );
    expect(q).toEqual({ page: 3, limit: 25, sortBy: "email", sort: "desc", search: "ann", status: "In Draft" });
    expect(buildQuery(q)).toBe("?page=3&limit=25&sortBy=email&sort=desc&search=ann&status=In+Draft");
  });
  it("sends no paging when pagination is off", () => {
    expect(listQuery({ mode: "off" })).toEqual({});
  });
});

describe("dataProvider", () => {
  it("reads {data, pagination} into Refine's {data, total}", async () => {
    const fetch = mockFetch(200, { data: [{ _id: "1" }], pagination: { totalDocuments: 41, totalPages: 5 } });
    const res = await dataProvider.getList({ resource: "users", pagination: { currentPage: 2, pageSize: 10 } });
    expect(res.total).toBe(41);
    expect(res.data).toEqual([{ _id: "1" }]);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/users?page=2&limit=10");
    expect(init.credentials).toBe("include");
    expect((init.headers as Record<string, string>)["X-Requested-With"]).toBe("XMLHttpRequest");
  });
  it("sends JSON to the path from meta.path", async () => {
    const fetch = mockFetch(200, { data: { _id: "u1" }, message: "Credit added successfully" });
    const res = await dataProvider.update({ resource: "users", id: "u1", variables: { availableCredits: 5 }, meta: { path: "users/u1/credit" } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/users/u1/credit");
    expect(init.method).toBe("PUT");
    expect(init.body).toBe('{"availableCredits":5}');
    expect((res as { message?: string }).message).toBe("Credit added successfully");
  });
  it("turns an error body into an HttpError carrying the server's message and status", async () => {
    mockFetch(403, { statusCode: 403, message: "Forbidden resource", code: "forbidden" });
    await expect(dataProvider.getOne({ resource: "users", id: "x" })).rejects.toMatchObject({ message: "Forbidden resource", statusCode: 403 });
  });
  it("falls back to 'An error occurred' when the server sends no message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("oops", { status: 500 })));
    await expect(dataProvider.deleteOne({ resource: "users", id: "x" })).rejects.toMatchObject({ message: "An error occurred", statusCode: 500 });
  });
});
