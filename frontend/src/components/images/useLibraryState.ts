// The image library's state, out of the screen: what the URL says (sort, search,
// category, page, limit, print mode, modals) and which images are selected.
import { useMemo, useState } from "react";
import { useSearchParams } from "../../lib/searchParams";
import { openModalParams } from "../../lib/queryModal";
import { imageListQuery, sortFromParams, withSort, type ImageSortField, type SortDirection } from "./library";

/** The library's URL state and the changes the toolbar, chips and pager make to it. */
export function useLibraryUrl(printModeProp?: boolean) {
  const [params, setParams] = useSearchParams();
  const query = imageListQuery(params);
  const { sortBy, sort } = sortFromParams(params);
  const update = (change: (next: URLSearchParams) => void) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      change(next);
      return next;
    });
  return {
    params,
    query,
    sortBy,
    sort,
    printMode: printModeProp ?? params.has("addPrint"),
    /** `addPrint=<printId>`: the print that 'Add to print' adds to. */
    printId: params.get("addPrint"),
    category: params.get("imageCategory"),
    search: params.get("search") ?? "",
    /** A filter changed: back to page 1. */
    setFilter: (name: "search" | "imageCategory", value?: string) =>
      update((n) => {
        if (value) n.set(name, value);
        else n.delete(name);
        n.set("page", "1");
      }),
    setSort: (field: ImageSortField, direction: SortDirection) => setParams((p) => withSort(p, field, direction)),
    setPage: (page: number) => update((n) => n.set("page", String(page))),
    setLimit: (limit: number) =>
      update((n) => {
        n.set("limit", String(limit));
        n.set("page", "1");
      }),
    openModal: (name: string, value?: string) => setParams((p) => openModalParams(p, name, value)),
  };
}

/** Checked images (kept across pages until cleared). */
export function useSelection() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const ids = useMemo(() => [...selected], [selected]);
  const toggle = (id: string, on = !selected.has(id)) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return { has: (id: string) => selected.has(id), size: selected.size, ids, toggle, clear: () => setSelected(new Set()) };
}
