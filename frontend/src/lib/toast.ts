import type { NotificationInstance } from "antd/es/notification/interface";

/**
 * One place that shows toasts, so the spec's rule (bottom-right, errors 3 s,
 * successes 5 s) cannot drift between screens. The antd instance is registered by
 * <ToastHost> inside antd's <App>, so toasts pick up the theme; before that (and in
 * unit tests) calls are dropped.
 */
export const TOAST_SECONDS = { error: 3, success: 5, info: 5 } as const;

let api: NotificationInstance | null = null;

export function registerToastApi(instance: NotificationInstance | null) {
  api = instance;
}

function show(type: "success" | "error" | "info", message: string, description?: string, key?: string) {
  api?.[type]({ message, description, key, placement: "bottomRight", duration: TOAST_SECONDS[type] });
}

export const toast = {
  success: (message: string, description?: string, key?: string) => show("success", message, description, key),
  error: (message: string, description?: string, key?: string) => show("error", message, description, key),
  info: (message: string, description?: string, key?: string) => show("info", message, description, key),
  close: (key: string) => api?.destroy(key),
};
