import { describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { useUrlList } from "./urlList";
import { useQueryModal } from "./queryModal";

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
