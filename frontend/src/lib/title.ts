import { useEffect } from "react";

export const APP_NAME = "GangSheet Studio";
export const pageTitle = (page?: string) => (page ? `${APP_NAME} | ${page}` : APP_NAME);

/** The tab reads "GangSheet Studio | <page>". */
export function usePageTitle(page?: string) {
  useEffect(() => {
    document.title = pageTitle(page);
  }, [page]);
}
