/** How many page numbers the pager shows at most. */
export const PAGE_WINDOW = 7;
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

/**
 * Page numbers to show: every page when there are 7 or fewer; otherwise 7 numbers,
 * 1–7 while the current page is 4 or lower, else current−3 … current+3. Near the end the
 * window slides back so it still holds 7 pages that exist.
 */
export function pageNumbers(current: number, totalPages: number): number[] {
  const total = Math.max(0, Math.floor(totalPages));
  if (total <= PAGE_WINDOW) return Array.from({ length: total }, (_, i) => i + 1);
  const half = Math.floor(PAGE_WINDOW / 2);
  let start = current <= half + 1 ? 1 : current - half;
  start = Math.min(start, total - PAGE_WINDOW + 1);
  return Array.from({ length: PAGE_WINDOW }, (_, i) => start + i);
}
