import { describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { useLocalPages, useUrlList } from "./urlList";
import { useQueryModal } from "./queryModal";
import { useSearchParams } from "./searchParams";

const wrapper = (url: string) => ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;

describe("useUrlList", () => {
  it("changing the page size goes back to page 1", () => {
    const { result } = renderHook(() => ({ list: useUrlList(), loc: useLocation() }), { wrapper: wrapper("/users?page=4&limit=25") });
    act(() => result.current.list.setLimit(50));
    expect(result.current.loc.search).toBe("?page=1&limit=50");
  });
  it("a new search goes back to page 1 and clearing it removes the parameter", () => {
    const { result } = renderHook(() => ({ list: useUrlList(), loc: useLocation() }), { wrapper: wrapper("/users?page=3") });
    act(() => result.current.list.setSearch("ann"));
    expect(result.current.loc.search).toBe("?page=1&search=ann");
    act(() => result.current.list.setSearch(""));
    expect(result.current.loc.search).toBe("?page=1");
  });
});

describe("useQueryModal", () => {
  it("is open while its parameter is present and exposes the value", () => {
    const { result } = renderHook(() => useQueryModal("editUser"), { wrapper: wrapper("/users?editUser=u7") });
    expect(result.current).toMatchObject({ open: true, value: "u7" });
  });
  it("closing follows the callback", () => {
    const { result } = renderHook(() => ({ modal: useQueryModal("addSize"), loc: useLocation() }), {
      wrapper: wrapper("/sizes?addSize=true&callback=%2Fprints%2Fmanual-create%3FaddPrint%3Dtrue"),
    });
    act(() => result.current.modal.close());
    expect(result.current.loc.pathname + result.current.loc.search).toBe("/prints/manual-create?addPrint=true");
  });
  it("closing without a callback only removes the parameter", () => {
    const { result } = renderHook(() => ({ modal: useQueryModal("deleteUser"), loc: useLocation() }), { wrapper: wrapper("/users?page=2&deleteUser=u1") });
    act(() => result.current.modal.close());
    expect(result.current.loc.pathname + result.current.loc.search).toBe("/users?page=2");
    expect(result.current.modal.open).toBe(false);
  });
});

describe("useSearchParams (queued updates)", () => {
  it("an update from a stale closure starts from the latest params, not its render's", () => {
    const { result } = renderHook(() => ({ sp: useSearchParams(), loc: useLocation() }), { wrapper: wrapper("/prints/1?printWarningModal=5") });
    const staleSet = result.current.sp[1];
    // A socket event opens the success modal, then the request's older callback closes the warning.
    act(() => result.current.sp[1]((p) => { p.set("printSuccessModal", "true"); return p; }));
    act(() => staleSet((p) => { p.delete("printWarningModal"); return p; }));
    expect(result.current.loc.search).toBe("?printSuccessModal=true");
  });
  it("two updates before a re-render both apply", () => {
    const { result } = renderHook(() => ({ sp: useSearchParams(), loc: useLocation() }), { wrapper: wrapper("/images?page=2") });
    act(() => {
      result.current.sp[1]((p) => { p.set("a", "1"); return p; });
      result.current.sp[1]((p) => { p.set("b", "2"); return p; });
    });
    expect(result.current.loc.search).toBe("?page=2&a=1&b=2");
  });
});

describe("useUrlList filters and sort", () => {
  it("a filter or a picked sort goes back to page 1; a header click keeps the page", () => {
    const { result } = renderHook(() => ({ list: useUrlList({ filters: ["status"] }), loc: useLocation() }), { wrapper: wrapper("/prints?page=3") });
    act(() => result.current.list.setFilter("status", "Completed"));
    expect(result.current.loc.search).toBe("?page=1&status=Completed");
    act(() => result.current.list.setPage(2));
    act(() => result.current.list.toggleSort("name"));
    expect(result.current.loc.search).toBe("?page=2&status=Completed&sortBy=name&sort=asc");
    act(() => result.current.list.setSort("score", "desc"));
    expect(result.current.loc.search).toBe("?page=1&status=Completed&sortBy=score&sort=desc");
  });
  it("a date range sets or clears both ends at once", () => {
    const { result } = renderHook(() => ({ list: useUrlList({ filters: ["startDate", "endDate"] }), loc: useLocation() }), { wrapper: wrapper("/orders?page=2") });
    act(() => result.current.list.setFilters({ startDate: "2025-01-01", endDate: "2025-01-31" }));
    expect(result.current.list.state.filters).toEqual({ startDate: "2025-01-01", endDate: "2025-01-31" });
    act(() => result.current.list.setFilters({ startDate: undefined, endDate: undefined }));
    expect(result.current.loc.search).toBe("?page=1");
  });
  it("a table's size change goes back to page 1", () => {
    const { result } = renderHook(() => ({ list: useUrlList(), loc: useLocation() }), { wrapper: wrapper("/orders?page=4") });
    act(() => result.current.list.tablePagination(100).onChange(5, 10));
    expect(result.current.loc.search).toBe("?page=5");
    act(() => result.current.list.tablePagination(100).onChange(5, 25));
    expect(result.current.loc.search).toBe("?page=1&limit=25");
  });
});

describe("useLocalPages", () => {
  it("pages in memory and a new size goes back to page 1", () => {
    const { result } = renderHook(() => useLocalPages(), { wrapper: wrapper("/profile") });
    act(() => result.current.tablePagination(100).onChange(3, 10));
    expect(result.current).toMatchObject({ page: 3, limit: 10 });
    act(() => result.current.tablePagination(100).onChange(3, 50));
    expect(result.current).toMatchObject({ page: 1, limit: 50 });
  });
});
