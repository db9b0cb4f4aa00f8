import { useCallback, useMemo, useState } from "react";
import { useSearchParams } from "./searchParams";
import type { CrudFilter, CrudSort, Pagination } from "@refinedev/core";
import { DEFAULT_PAGE_SIZE } from "./pagination";
import { nextSort, type SortOrder, type SortState } from "./sort";

/**
 * How one list reads its URL. Only the parameters named here are list state: anything else
 * in the query string (a modal's `editSize=…`, a `callback`) is never sent to the API.
 */
export interface ListOptions<F extends string = never> {
  /** Filter parameters, each sent to the API as its own query parameter (`status=Completed`). */
  filters?: readonly F[];
  defaultLimit?: number;
  /** A `limit` present but empty (the size selector was cleared) means this size. */
  clearedLimit?: number;
  /** The sort when the URL names none (or names a field outside `sortFields`). */
  defaultSort?: { sortBy: string; sort: SortOrder };
  /** Sort fields the list accepts from the URL; without it, any. */
  sortFields?: readonly string[];
}

export interface ListState<F extends string = never> {
  page: number;
  limit: number;
  sortBy?: string;
  sort?: SortOrder;
  /** As typed (the search box shows it); the API gets it trimmed. */
  search?: string;
  filters: Partial<Record<F, string>>;
}

const positiveInt = (raw: string | null, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads a list screen's state from the URL (the URL is the single source of truth). */
export function parseListState<F extends string = never>(params: URLSearchParams, options: ListOptions<F> = {}): ListState<F> {
  const { defaultLimit = DEFAULT_PAGE_SIZE, clearedLimit, defaultSort, sortFields } = options;
  const rawLimit = params.get("limit");
  const rawSortBy = params.get("sortBy");
  const rawSort = params.get("sort");
  const sortBy = rawSortBy && (!sortFields || sortFields.includes(rawSortBy)) ? rawSortBy : defaultSort?.sortBy;
  const sort = rawSort === "asc" || rawSort === "desc" ? rawSort : defaultSort?.sort;
  const filters: Partial<Record<F, string>> = {};
  for (const name of options.filters ?? []) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return {
    page: positiveInt(params.get("page"), 1),
    limit: rawLimit === "" && clearedLimit !== undefined ? clearedLimit : positiveInt(rawLimit, defaultLimit),
    sortBy,
    sort,
    search: params.get("search") || undefined,
    filters,
  };
}

/** Refine's list arguments for the same state (see providers/dataProvider listQuery). */
export function toRefineArgs<F extends string>(state: ListState<F>): { pagination: Pagination; sorters: CrudSort[]; filters: CrudFilter[] } {
  const filters: CrudFilter[] = (Object.entries(state.filters) as [string, string][]).map(([field, value]) => ({ field, operator: "eq", value }));
  const search = state.search?.trim();
  if (search) filters.push({ field: "search", operator: "contains", value: search });
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
 * The list state of every URL-driven table and grid:
 * `const list = useUrlList({ filters: ["status"] }); useResourceList("print", list.refine)`.
 * Every change that alters which rows match (filter, search, page size, a picked sort)
 * goes back to page 1.
 */
export function useUrlList<F extends string = never>(options: ListOptions<F> = {}) {
  const [params, setParams] = useSearchParams();
  // Callers write the options inline; their content is what matters.
  const key = JSON.stringify(options);
  const state = useMemo(() => parseListState<F>(params, JSON.parse(key) as ListOptions<F>), [params, key]);
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
  const firstPage = (fn: (p: URLSearchParams) => void) =>
    update((p) => {
      fn(p);
      p.set("page", "1");
    });

  return {
    state,
    refine,
    setPage: (page: number) => update((p) => p.set("page", String(page))),
    setLimit: (limit: number) => firstPage((p) => p.set("limit", String(limit))),
    /** A table header click: asc → desc → none (the page stays). */
    toggleSort: (field: string) =>
      setParams((p) => applySort(p, nextSort({ sortBy: p.get("sortBy") ?? undefined, sort: (p.get("sort") as SortOrder) ?? undefined }, field))),
    /** A sort picked from a menu. */
    setSort: (sortBy: string, sort: SortOrder) =>
      firstPage((p) => {
        p.set("sortBy", sortBy);
        p.set("sort", sort);
      }),
    setSearch: (search: string) =>
      firstPage((p) => {
        if (search) p.set("search", search);
        else p.delete("search");
      }),
    setFilter: (name: F, value: string | undefined) => firstPage((p) => setOrDelete(p, name, value)),
    /** Several filters at once, e.g. a date range's start and end. */
    setFilters: (values: Partial<Record<F, string | undefined>>) =>
      firstPage((p) => (Object.entries(values) as [string, string | undefined][]).forEach(([name, value]) => setOrDelete(p, name, value))),
    /** antd `Table` pagination over the same state. */
    tablePagination: (total: number) => tablePagination(state.page, state.limit, total, (page, limit) => (limit !== state.limit ? firstPage((p) => p.set("limit", String(limit))) : update((p) => p.set("page", String(page))))),
  };
}

export type UrlList<F extends string = never> = ReturnType<typeof useUrlList<F>>;

function setOrDelete(p: URLSearchParams, name: string, value: string | undefined) {
  if (value) p.set(name, value);
  else p.delete(name);
}

/** The page sizes an antd table's size changer offers. */
export const TABLE_PAGE_SIZES = [10, 25, 50, 100];

function tablePagination(page: number, limit: number, total: number, onChange: (page: number, limit: number) => void) {
  return { current: page, pageSize: limit, total, pageSizeOptions: TABLE_PAGE_SIZES, showSizeChanger: true, onChange };
}

/**
 * Page and size of a table that is not the screen's main list (a card on a detail page), kept
 * in the component: a new size goes back to page 1.
 */
export function useLocalPages(defaultLimit = DEFAULT_PAGE_SIZE) {
  const [{ page, limit }, setPages] = useState({ page: 1, limit: defaultLimit });
  return {
    page,
    limit,
    tablePagination: (total: number) =>
      tablePagination(page, limit, total, (nextPage, nextLimit) => setPages(nextLimit !== limit ? { page: 1, limit: nextLimit } : { page: nextPage, limit })),
  };
}
