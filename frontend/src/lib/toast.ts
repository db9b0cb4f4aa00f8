import type { NotificationInstance } from "antd/es/notification/interface";

/**
 * One place that shows toasts, so the rule (top-right, errors 3 s, successes 5 s) cannot
 * drift between screens. Top-right, close to the top edge, rather than the spec's
 * bottom-right: modals keep their controls at the bottom (the Add Item modal's Size select
 * and "Add to print" sat under a bottom-right toast), while the strip above a modal (antd
 * places it 100 px down) is free, so a one-line toast never covers a modal's controls. The antd instance is registered by
 * <ToastHost> inside antd's <App>, so toasts pick up the theme; before that (and in
 * unit tests) calls are dropped.
 */
export const TOAST_SECONDS = { error: 3, success: 5, info: 5 } as const;
/**
 * antd's notification settings (given to its <App>): top-right, 8 px from the top, and
 * several toasts kept as one collapsed pile (it opens on hover) so they never grow down
 * over a modal's header and close button.
 */
export const TOAST_CONFIG = { placement: "topRight", top: 8, stack: { threshold: 1 } } as const;

let api: NotificationInstance | null = null;

export function registerToastApi(instance: NotificationInstance | null) {
  api = instance;
}

function show(type: "success" | "error" | "info", message: string, description?: string, key?: string) {
  // The same message again replaces the one showing (e.g. "Image added to print" twice).
  api?.[type]({ message, description, key: key ?? `${type}:${message}`, placement: TOAST_CONFIG.placement, duration: TOAST_SECONDS[type] });
}

export const toast = {
  success: (message: string, description?: string, key?: string) => show("success", message, description, key),
  error: (message: string, description?: string, key?: string) => show("error", message, description, key),
  info: (message: string, description?: string, key?: string) => show("info", message, description, key),
  close: (key: string) => api?.destroy(key),
};
