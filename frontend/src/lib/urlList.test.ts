import { describe, expect, it } from "vitest";
import { parseListState, toRefineArgs } from "./urlList";

describe("parseListState", () => {
  it("defaults to page 1 and 10 rows", () => {
    expect(parseListState(new URLSearchParams())).toMatchObject({ page: 1, limit: 10, filters: {} });
  });
  it("reads page, limit, sort and search, and ignores garbage", () => {
    const s = parseListState(new URLSearchParams("page=2&limit=50&sortBy=email&sort=desc&search=ann"));
    expect(s).toMatchObject({ page: 2, limit: 50, sortBy: "email", sort: "desc", search: "ann" });
    expect(parseListState(new URLSearchParams("page=-1&limit=abc&sort=sideways"))).toMatchObject({ page: 1, limit: 10, sort: undefined });
  });
  it("turns the state into Refine arguments: only the list's own filters, the search trimmed", () => {
    const args = toRefineArgs(parseListState(new URLSearchParams("page=2&limit=25&sortBy=email&sort=asc&search=%20x%20&status=active&editUser=u1"), { filters: ["status"] }));
    expect(args.pagination).toEqual({ currentPage: 2, pageSize: 25, mode: "server" });
    expect(args.sorters).toEqual([{ field: "email", order: "asc" }]);
    expect(args.filters).toEqual([
      { field: "status", operator: "eq", value: "active" },
      { field: "search", operator: "contains", value: "x" },
    ]);
  });
  it("drops a half-specified sort", () => {
    expect(toRefineArgs(parseListState(new URLSearchParams("sortBy=email"))).sorters).toEqual([]);
  });
});
