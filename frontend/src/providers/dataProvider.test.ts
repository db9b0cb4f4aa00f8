import { afterEach, describe, expect, it, vi } from "vitest";
import { createDataProvider, listQuery } from "./dataProvider";

const dataProvider = createDataProvider({
  users: { list: "/api/users", one: "/api/users/{id}" },
  orders: { list: "/api/orders" },
});

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
    const [request] = fetch.mock.calls[0] as unknown as [Request];
    expect(new URL(request.url).pathname + new URL(request.url).search).toBe("/api/users?page=2&limit=10");
    expect(request.credentials).toBe("include");
    expect(request.headers.get("X-Requested-With")).toBe("XMLHttpRequest");
  });
  it("sends JSON to the path from meta.path, filling in the record's id", async () => {
    const fetch = mockFetch(200, { data: { _id: "u1" }, message: "Credit added successfully" });
    const res = await dataProvider.update({ resource: "users", id: "u1", variables: { availableCredits: 5 }, meta: { path: "/api/users/{id}/credit" } });
    const [request] = fetch.mock.calls[0] as unknown as [Request];
    expect(new URL(request.url).pathname).toBe("/api/users/u1/credit");
    expect(request.method).toBe("PUT");
    expect(await request.text()).toBe('{"availableCredits":5}');
    expect((res as { message?: string }).message).toBe("Credit added successfully");
  });
  it("sends a list's filters as query parameters, arrays repeated", async () => {
    const fetch = mockFetch(200, { data: [], pagination: { totalDocuments: 0, totalPages: 0 } });
    await dataProvider.getList({
      resource: "print",
      pagination: { currentPage: 1, pageSize: 10 },
      filters: [{ field: "status", operator: "in", value: ["In Draft", "Completed"] }],
      meta: { path: "/api/print/user/{userId}", params: { userId: "u 2" } },
    });
    const [request] = fetch.mock.calls[0] as unknown as [Request];
    const url = new URL(request.url);
    expect(url.pathname).toBe("/api/print/user/u%202");
    expect(url.searchParams.getAll("status")).toEqual(["In Draft", "Completed"]);
  });
  it("refuses a resource without API paths", async () => {
    await expect(dataProvider.getList({ resource: "nope" })).rejects.toThrow(/declare its api in src\/routes.tsx/);
    await expect(dataProvider.getOne({ resource: "orders", id: "o1" })).rejects.toThrow(/No one path for the resource "orders"/);
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
