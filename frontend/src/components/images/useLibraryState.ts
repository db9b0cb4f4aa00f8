// The image library's state, out of the screen: the list state in the URL (sort, search,
// category, page, limit), the print mode and modals, and which images are selected.
import { useMemo, useState } from "react";
import { useSearchParams } from "../../lib/searchParams";
import { useOpenModal } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";
import { LIBRARY_LIST, type ImageSortField, type SortDirection } from "./library";

/** The library's URL state and the changes the toolbar, chips and pager make to it. */
export function useLibraryUrl(printModeProp?: boolean) {
  const [params] = useSearchParams();
  const openModal = useOpenModal();
  const list = useUrlList(LIBRARY_LIST);
  return {
    list,
    params,
    sortBy: list.state.sortBy as ImageSortField,
    sort: list.state.sort as SortDirection,
    printMode: printModeProp ?? params.has("addPrint"),
    /** `addPrint=<printId>`: the print that 'Add to print' adds to. */
    printId: params.get("addPrint"),
    openModal,
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
