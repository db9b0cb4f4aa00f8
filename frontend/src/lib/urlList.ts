import { useCallback, useMemo } from "react";
import { useSearchParams } from "./searchParams";
import type { CrudFilter, CrudSort, Pagination } from "@refinedev/core";
import { DEFAULT_PAGE_SIZE } from "./pagination";
import { isModalParam } from "./queryModal";
import { nextSort, type SortOrder, type SortState } from "./sort";

const RESERVED = new Set(["page", "limit", "sortBy", "sort", "search"]);

export interface ListState {
  page: number;
  limit: number;
  sortBy?: string;
  sort?: SortOrder;
  search?: string;
  /** Every other parameter except modal ones, e.g. status=Completed. */
  filters: Record<string, string>;
}

const positiveInt = (raw: string | null, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads a list screen's state from the URL (the URL is the single source of truth). */
export function parseListState(params: URLSearchParams, defaultLimit = DEFAULT_PAGE_SIZE): ListState {
  const sort = params.get("sort");
  const filters: Record<string, string> = {};
  params.forEach((value, key) => {
    if (!RESERVED.has(key) && !isModalParam(key) && value !== "") filters[key] = value;
  });
  return {
    page: positiveInt(params.get("page"), 1),
    limit: positiveInt(params.get("limit"), defaultLimit),
    sortBy: params.get("sortBy") || undefined,
    sort: sort === "asc" || sort === "desc" ? sort : undefined,
    search: params.get("search") || undefined,
    filters,
  };
}

/** Refine's list arguments for the same state (see providers/dataProvider listQuery). */
export function toRefineArgs(state: ListState): { pagination: Pagination; sorters: CrudSort[]; filters: CrudFilter[] } {
  const filters: CrudFilter[] = Object.entries(state.filters).map(([field, value]) => ({ field, operator: "eq", value }));
  if (state.search) filters.push({ field: "search", operator: "contains", value: state.search });
  return {
    pagination: { currentPage: state.page, pageSize: state.limit, mode: "server" },
    sorters: state.sortBy && state.sort ? [{ field: state.sortBy, order: state.sort }] : [],
    filters,
  };
}

/** Writes the sort state; "none" removes both parameters. */
export function applySort(params: URLSearchParams, sort: SortState): URLSearchParams {
  const next = new URLSearchParams(params);
  if (sort.sortBy && sort.sort) {
    next.set("sortBy", sort.sortBy);
    next.set("sort", sort.sort);
  } else {
    next.delete("sortBy");
    next.delete("sort");
  }
  return next;
}

/**
 * URL-driven list state for tables and grids:
 * `const list = useUrlList(); useList({ resource: "users", ...list.refine })`.
 */
export function useUrlList(defaultLimit = DEFAULT_PAGE_SIZE) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseListState(params, defaultLimit), [params, defaultLimit]);
  const refine = useMemo(() => toRefineArgs(state), [state]);

  const update = useCallback(
    (fn: (p: URLSearchParams) => void) =>
      setParams((p) => {
        const next = new URLSearchParams(p);
        fn(next);
        return next;
      }),
    [setParams],
  );

  return {
    state,
    refine,
    setPage: (page: number) => update((p) => p.set("page", String(page))),
    /** Changing the page size always goes back to page 1. */
    setLimit: (limit: number) =>
      update((p) => {
        p.set("limit", String(limit));
        p.set("page", "1");
      }),
    toggleSort: (field: string) =>
      setParams((p) => applySort(p, nextSort({ sortBy: p.get("sortBy") ?? undefined, sort: (p.get("sort") as SortOrder) ?? undefined }, field))),
    setSearch: (search: string) =>
      update((p) => {
        if (search) p.set("search", search);
        else p.delete("search");
        p.set("page", "1");
      }),
    setFilter: (name: string, value: string | undefined) =>
      update((p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        p.set("page", "1");
      }),
  };
}
