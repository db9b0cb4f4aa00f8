// Data hooks of the prints screens. Everything goes through api/http (cookies, error
// toasts) and React Query; Refine's list/detail caches are invalidated after changes.
import { useEffect, useState } from "react";
import { keepPreviousData, useIsMutating, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useInvalidate } from "@refinedev/core";
import { http, type Envelope, type ListEnvelope } from "../../api/http";
import { PROFILE_KEY } from "../../providers/queryClient";
import { normalizeLayout } from "./layoutGeometry";
import type { Layout, Print, PrintFile, SheetPreset, SheetSettings } from "./types";
import { DEFAULT_SHEET_SETTINGS } from "./types";

export const PREVIEW_DEBOUNCE_MS = 400;
const SETTINGS_KEY = ["sheet-settings"] as const;
const PRESETS_KEY = ["sheet-presets"] as const;

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

export function useSheetSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: async () => ({ ...DEFAULT_SHEET_SETTINGS, ...(await http<Envelope<SheetSettings>>("/sheet-settings", { silent: true })).data }),
    staleTime: 60_000,
    retry: false,
  });
}

export function useSaveSheetSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (values: Partial<SheetSettings>) => (await http<Envelope<SheetSettings>>("/sheet-settings", { method: "PUT", body: values })).data,
    onSuccess: (data) => qc.setQueryData(SETTINGS_KEY, { ...DEFAULT_SHEET_SETTINGS, ...data }),
  });
}

export function useSheetPresets() {
  return useQuery({
    queryKey: PRESETS_KEY,
    queryFn: async () => (await http<ListEnvelope<SheetPreset>>("/sheet-presets", { query: { limit: 100 }, silent: true })).data,
    staleTime: 60_000,
    retry: false,
  });
}

export function usePresetMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: PRESETS_KEY });
  const create = useMutation({
    mutationFn: async (values: SheetSettings & { name: string }) => (await http<Envelope<SheetPreset>>("/sheet-presets", { method: "POST", body: values })).data,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => http(`/sheet-presets/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  return { create, remove };
}

export interface PreviewInput {
  /** A saved print: POST /print/{id}/preview. */
  printId?: string;
  /** An unsaved one (manual create): POST /print/preview with the items. */
  items?: { imageId: string; sizeId: string; quantity: number }[];
  settings: SheetSettings | undefined;
  /** Changes whenever the saved print's items change, so the preview follows them. */
  version?: unknown;
  enabled?: boolean;
}

/** The live layout, re-requested 400 ms after the items or settings stop changing. */
export function useLayoutPreview(input: PreviewInput) {
  const debounced = useDebounced({ printId: input.printId, items: input.items, settings: input.settings, version: input.version }, PREVIEW_DEBOUNCE_MS);
  const hasItems = input.printId ? true : (debounced.items?.length ?? 0) > 0;
  return useQuery<Layout, Error>({
    queryKey: ["print-preview", debounced],
    enabled: (input.enabled ?? true) && hasItems && !!debounced.settings,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const path = debounced.printId ? `/print/${debounced.printId}/preview` : "/print/preview";
      const body = debounced.printId ? { settings: debounced.settings } : { printItems: debounced.items, settings: debounced.settings };
      return normalizeLayout(await http(path, { method: "POST", body, silent: true, signal }), debounced.settings);
    },
  });
}

/** Mutations of one saved print; each refreshes Refine's print list and detail. */
export function usePrintActions(printId: string | undefined) {
  const invalidate = useInvalidate();
  const qc = useQueryClient();
  const refresh = async () => {
    await invalidate({ resource: "print", invalidates: ["list", "detail"], id: printId });
    await qc.invalidateQueries({ queryKey: ["print-preview"] });
  };
  const base = `/print/${printId}`;
  const addItem = useMutation({
    mutationFn: (item: { imageId: string; sizeId: string; quantity: number }) => http(`${base}/printItem`, { method: "POST", body: item }),
    onSuccess: refresh,
  });
  const updateItem = useMutation({
    mutationFn: ({ itemId, ...values }: { itemId: string; imageId?: string; sizeId?: string; quantity?: number }) =>
      http(`${base}/${itemId}`, { method: "PUT", body: values }),
    onSuccess: refresh,
  });
  const deleteItem = useMutation({
    mutationFn: (itemId: string) => http(`${base}/${itemId}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const process = useMutation({
    mutationFn: async (settings?: Partial<SheetSettings>) =>
      (await http<Envelope<{ _id: string; status: Print["status"]; fileId?: PrintFile[] }>>(`${base}/proccess`, { method: "POST", body: { settings } })).data,
    onSuccess: async () => {
      await refresh();
      await qc.invalidateQueries({ queryKey: PROFILE_KEY });
    },
  });
  const cancel = useMutation({
    mutationFn: async () => (await http<Envelope<{ _id: string; status: Print["status"] }>>(`${base}/cancel`, { method: "POST" })).message,
    onSuccess: async () => {
      await refresh();
      await qc.invalidateQueries({ queryKey: PROFILE_KEY });
    },
  });
  const removeFiles = useMutation({
    mutationFn: () => http(base, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const forceDelete = useMutation({
    mutationFn: () => http(`${base}/force`, { method: "DELETE" }),
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
  return { addItem, updateItem, deleteItem, process, cancel, removeFiles, forceDelete, refresh };
}

/** Creates a draft print from the manual-create lines; returns the new print. */
export function useCreatePrint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (printItems: { imageId: string; sizeId: string; quantity: number }[]) =>
      (await http<Envelope<Print>>("/print", { method: "POST", body: { printItems } })).data,
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
}
