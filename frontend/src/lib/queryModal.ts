import { useCallback } from "react";
import { useNavigate } from "react-router";
import { useSearchParams } from "./searchParams";

/**
 * Query parameters that open modals (e.g. ?editImage=<id>).
 * They describe UI state, not data, so list screens never send them as filters.
 */
export const MODAL_PARAMS = [
  "editImage", "addImage", "deleteImage", "editCategory",
  "addPrint", "printSuccessModal", "filePath", "printWarningModal", "deletePrint",
  "addSize", "editSize", "deleteSize", "editImagePrint",
  "addIntegration", "editIntegration", "deleteIntegration",
  "addUser", "editUser", "deleteUser", "editCredit",
  "buyCredit", "bankTransfer", "PaymentResult", "addApiKey", "addWebhook",
  "callback",
] as const;


/** The search string with a modal's parameter set (value "true" for plain open flags). */
export function openModalParams(current: URLSearchParams, name: string, value = "true", callback?: string): URLSearchParams {
  const next = new URLSearchParams(current);
  next.set(name, value);
  if (callback) next.set("callback", callback);
  return next;
}

/**
 * Closing removes the modal's parameter(s) and the callback; the callback, when there
 * was one, is where the app goes next.
 */
export function closeModalParams(current: URLSearchParams, names: string[]): { params: URLSearchParams; callback: string | null } {
  const next = new URLSearchParams(current);
  for (const name of names) next.delete(name);
  const callback = next.get("callback");
  next.delete("callback");
  // Only same-site paths: a callback must never send the user to another origin.
  const safe = callback && callback.startsWith("/") && !callback.startsWith("//") ? callback : null;
  return { params: next, callback: safe };
}

export interface QueryModal {
  open: boolean;
  /** The parameter's value, e.g. the id in editUser={id}. */
  value: string | null;
  show: (value?: string, callback?: string) => void;
  close: () => void;
}

/** `const edit = useQueryModal("editUser"); <Modal open={edit.open} onCancel={edit.close}>` */
export function useQueryModal(name: string, alsoRemove: string[] = []): QueryModal {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const value = params.get(name);

  const show = useCallback(
    (v = "true", callback?: string) => setParams((p) => openModalParams(p, name, v, callback)),
    [name, setParams],
  );
  // Callers pass a fresh array each render; its content is what matters.
  const companions = alsoRemove.join(",");
  const close = useCallback(() => {
    const names = [name, ...(companions ? companions.split(",") : [])];
    const { callback } = closeModalParams(params, names);
    if (callback) navigate(callback);
    else setParams((p) => closeModalParams(p, names).params);
  }, [params, name, navigate, setParams, companions]);

  return { open: value !== null, value, show, close };
}
