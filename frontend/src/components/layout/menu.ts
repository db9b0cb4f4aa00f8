import { menuEntries, type MenuEntry } from "../../routes";

export type { MenuEntry };

/** Sidebar entries in the spec's order, from the route table (src/routes.tsx). */
export const MENU: MenuEntry[] = menuEntries();

export const menuFor = (isAdmin: boolean) => MENU.filter((m) => isAdmin || !m.adminOnly);

/** The entry whose path is the longest prefix of the current path. */
export function activeMenuPath(pathname: string): string | undefined {
  return MENU.map((m) => m.path)
    .filter((p) => pathname === p || pathname.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
}
