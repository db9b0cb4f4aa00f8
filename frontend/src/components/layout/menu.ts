import type { MenuEntry } from "../../routes";

export type { MenuEntry };

// The entries come from the route table through App (`menuEntries()`), in the table's order.

export const menuFor = (entries: readonly MenuEntry[], isAdmin: boolean) => entries.filter((m) => isAdmin || !m.adminOnly);

/** The entry whose path is the longest prefix of the current path. */
export function activeMenuPath(entries: readonly MenuEntry[], pathname: string): string | undefined {
  return entries
    .map((m) => m.path)
    .filter((p) => pathname === p || pathname.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
}
