import { useMutation } from "@tanstack/react-query";
import { useInvalidate } from "@refinedev/core";
import { api, call } from "../api/client";
import { useApiQuery, useInvalidateApi } from "../api/query";
import type { components } from "../api/schema";
import type { SheetSettingsInput } from "../api/types";

type LayoutCopyInput = components["schemas"]["LayoutCopyInput"];
export type LayoutProblem = components["schemas"]["LayoutProblemDto"];
export type PrintLayout = components["schemas"]["PrintLayoutDto"];
export type LayoutShapes = components["schemas"]["LayoutShapesDto"];

interface LayoutBody {
  settings?: SheetSettingsInput;
  copies: LayoutCopyInput[];
}

/**
 * The edited layout of a print (docs/prints.md "Edited layout"): save it (the server checks
 * it, 400 with the message to show), check it without saving (the editor's live check for
 * "shape" prints), re-nest the unpinned copies around the pinned ones, drop the edit, and
 * bring an item's quantity in line with the copies the editor holds. Saving, dropping and
 * quantities refresh the print and its preview.
 */
export function usePrintLayout(printId: string) {
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  const path = { id: printId };
  const refresh = async () => {
    await invalidate({ resource: "print", invalidates: ["list", "detail"], id: printId });
    await invalidateApi("/api/print/{id}/preview");
  };
  const save = useMutation({
    mutationFn: async (body: LayoutBody) => call(api.PUT("/api/print/{id}/layout", { params: { path }, body }), { silent: true }),
    onSuccess: refresh,
  });
  const check = useMutation({
    mutationFn: async (body: LayoutBody) => (await call(api.POST("/api/print/{id}/layout/check", { params: { path }, body }), { silent: true })).data.problems,
  });
  const renest = useMutation({
    mutationFn: async (body: LayoutBody) => (await call(api.POST("/api/print/{id}/layout/renest", { params: { path }, body }), { silent: true })).data,
  });
  const discard = useMutation({
    mutationFn: () => call(api.DELETE("/api/print/{id}/layout", { params: { path } })),
    onSuccess: refresh,
  });
  // an item's copies changed in the editor (deleted or added): its quantity follows, or it goes
  const setQuantity = useMutation({
    mutationFn: ({ itemId, quantity }: { itemId: string; quantity: number }) =>
      quantity > 0
        ? call(api.PUT("/api/print/{id}/{itemId}", { params: { path: { ...path, itemId } }, body: { quantity } }))
        : call(api.DELETE("/api/print/{id}/{itemId}", { params: { path: { ...path, itemId } } })),
  });
  return { save, check, renest, discard, setQuantity, refresh };
}

/**
 * Each design's footprint and ink mask for these sheet settings (POST …/layout/shapes): the
 * editor draws the copies' true outlines with them and checks the gap by ink while dragging
 * (layout-editor/shapeCheck.ts). Read once per print and settings; no toast on failure (the
 * editor then draws boxes and waits for the server's check).
 */
export function useLayoutShapes(printId: string | undefined, settings: SheetSettingsInput) {
  return useApiQuery(
    ["/api/print/{id}/layout/shapes", { id: printId, settings }],
    async (signal) => api.POST("/api/print/{id}/layout/shapes", { params: { path: { id: printId! } }, body: { settings }, signal }).then((r) => ({ ...r, data: r.data?.data })),
    { enabled: !!printId, silent: true, staleTime: 5 * 60_000, retry: false },
  );
}
