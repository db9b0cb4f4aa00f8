export type SortOrder = "asc" | "desc";
export interface SortState {
  sortBy?: string;
  sort?: SortOrder;
}

/**
 * A click on a column header cycles ascending → descending → none; clicking another
 * column starts it at ascending (one sorted column at a time).
 */
export function nextSort(current: SortState, field: string): SortState {
  if (current.sortBy !== field || !current.sort) return { sortBy: field, sort: "asc" };
  if (current.sort === "asc") return { sortBy: field, sort: "desc" };
  return {};
}
