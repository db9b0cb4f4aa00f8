// Data hooks of the prints screens: prints and presets are Refine resources; the settings and
// the live layout are non-resource reads (api/query.ts). Writes invalidate both kinds.
import { useEffect, useState } from "react";
import { keepPreviousData, useIsMutating, useMutation, useQueryClient } from "@tanstack/react-query";
import { useInvalidate } from "@refinedev/core";
import { api, call } from "../../api/client";
import { useApiQuery, useInvalidateApi, type ApiKey } from "../../api/query";
import type { PrintItemInput, SheetSettings, SheetSettingsInput } from "../../api/types";
import { useResourceList } from "../../hooks/useResource";

export const PREVIEW_DEBOUNCE_MS = 400;
const SETTINGS_KEY = ["/api/sheet-settings"] as const satisfies ApiKey;

/** `value`, once it has stopped changing for `ms` (compared by content). */
export function useDebounced<T>(value: T, ms: number): T {
  const json = JSON.stringify(value);
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(JSON.parse(json) as T), ms);
    return () => clearTimeout(t);
  }, [json, ms]);
  return settled;
}

/** True while any mutation of the app is in flight: the spec disables buttons then. */
export const useAnyMutationPending = () => useIsMutating() > 0;

/**
 * The seller's effective sheet settings: what they saved, the server's defaults for the
 * rest. The client keeps no defaults of its own; forms wait for this answer.
 */
export function useSheetSettings() {
  return useApiQuery(SETTINGS_KEY, () => api.GET("/api/sheet-settings"), { silent: true, staleTime: 60_000, retry: false, select: (r) => r.data });
}

export function useSaveSheetSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (values: SheetSettingsInput) => call(api.PUT("/api/sheet-settings", { body: values })),
    // The answer is the new effective settings: the cached read takes it as it is.
    onSuccess: (body) => qc.setQueryData(SETTINGS_KEY, body),
  });
}

/** The seller's presets (`data` stays undefined until they have loaded). */
export function useSheetPresets() {
  const { result, query } = useResourceList("sheet-presets", {
    pagination: { mode: "off" },
    errorNotification: false,
    queryOptions: { staleTime: 60_000, retry: false },
  });
  return { data: query.data ? result.data : undefined, isLoading: query.isLoading };
}

export function usePresetMutations() {
  const invalidate = useInvalidate();
  const refresh = () => invalidate({ resource: "sheet-presets", invalidates: ["all"] });
  const create = useMutation({
    mutationFn: async (values: SheetSettings & { name: string }) => (await call(api.POST("/api/sheet-presets", { body: values }))).data,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call(api.DELETE("/api/sheet-presets/{id}", { params: { path: { id } } })),
    onSuccess: refresh,
  });
  return { create, remove };
}

export interface PreviewInput {
  /** A saved print: POST /api/print/{id}/preview. */
  printId?: string;
  /** An unsaved one (manual create): POST /api/print/preview with the items. */
  items?: PrintItemInput[];
  settings: SheetSettings | undefined;
  /** Changes whenever the saved print's items change, so the preview follows them. */
  version?: unknown;
  enabled?: boolean;
}

/** The live layout, re-requested 400 ms after the items or settings stop changing. */
export function useLayoutPreview(input: PreviewInput) {
  // Edits are debounced; another print is not (its layout must never wait behind the last one's).
  const settled = useDebounced({ items: input.items, settings: input.settings, version: input.version }, PREVIEW_DEBOUNCE_MS);
  const debounced = { printId: input.printId, ...settled };
  const hasItems = input.printId ? true : (debounced.items?.length ?? 0) > 0;
  const { printId, items = [], settings } = debounced;
  const key: ApiKey = printId ? ["/api/print/{id}/preview", debounced] : ["/api/print/preview", debounced];
  return useApiQuery(key, (signal) =>
    printId
      ? api.POST("/api/print/{id}/preview", { params: { path: { id: printId } }, body: { settings }, signal })
      : api.POST("/api/print/preview", { body: { printItems: items, settings }, signal }), {
    silent: true,
    select: (r) => r.data,
    enabled: (input.enabled ?? true) && hasItems && !!debounced.settings,
    // While the next layout loads, keep showing the last one of the same print, never another
    // print's (opening a duplicate showed the source's "As rendered" layout for a moment).
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[1] as { printId?: string } | undefined)?.printId === debounced.printId ? keepPreviousData(previous) : undefined,
    retry: false,
    staleTime: 30_000,
  });
}

/** Mutations of one saved print; each refreshes Refine's print list and detail. */
export function usePrintActions(printId: string | undefined) {
  const invalidate = useInvalidate();
  const invalidateApi = useInvalidateApi();
  const refresh = async () => {
    await invalidate({ resource: "print", invalidates: ["list", "detail"], id: printId });
    await invalidateApi("/api/print/{id}/preview");
  };
  const path = { id: printId ?? "" };
  const addItem = useMutation({
    mutationFn: (item: PrintItemInput) => call(api.POST("/api/print/{id}/printItem", { params: { path }, body: item })),
    onSuccess: refresh,
  });
  const updateItem = useMutation({
    mutationFn: ({ itemId, ...values }: { itemId: string } & Partial<PrintItemInput>) =>
      call(api.PUT("/api/print/{id}/{itemId}", { params: { path: { ...path, itemId } }, body: values })),
    onSuccess: refresh,
  });
  const deleteItem = useMutation({
    mutationFn: (itemId: string) => call(api.DELETE("/api/print/{id}/{itemId}", { params: { path: { ...path, itemId } } })),
    onSuccess: refresh,
  });
  const process = useMutation({
    mutationFn: async (settings?: SheetSettingsInput) => (await call(api.POST("/api/print/{id}/proccess", { params: { path }, body: { settings } }))).data,
    onSuccess: async () => {
      await refresh();
      await invalidateApi("/api/profile");
    },
  });
  const cancel = useMutation({
    mutationFn: async () => (await call(api.POST("/api/print/{id}/cancel", { params: { path } }))).message,
    onSuccess: async () => {
      await refresh();
      await invalidateApi("/api/profile");
    },
  });
  const removeFiles = useMutation({
    mutationFn: () => call(api.DELETE("/api/print/{id}", { params: { path } })),
    onSuccess: refresh,
  });
  const forceDelete = useMutation({
    mutationFn: () => call(api.DELETE("/api/print/{id}/force", { params: { path } })),
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
  // A reprint: a new draft with this print's items and settings (the caller opens it).
  const duplicate = useMutation({
    mutationFn: async () => call(api.POST("/api/print/{id}/duplicate", { params: { path } })),
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
  return { addItem, updateItem, deleteItem, process, cancel, removeFiles, forceDelete, duplicate, refresh };
}

/** Creates a draft print from the manual-create lines; returns the new print. */
export function useCreatePrint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (printItems: PrintItemInput[]) => (await call(api.POST("/api/print", { body: { printItems } }))).data,
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
}
