import { useCallback } from "react";
import { useNavigate } from "react-router";
import { useSearchParams } from "./searchParams";
import type { ModalParam } from "../routes";

/**
 * Modals are opened by query parameters (e.g. `?editImage=<id>`). The names are declared per
 * screen in the route table (src/routes.tsx, `modals`); `ModalParam` is their union, so a
 * misspelt or undeclared name is a compile error. They describe UI state, not data: a list
 * sends only the filters it names (lib/urlList.ts), never these.
 */
export type { ModalParam };

/** The search string with a modal's parameter set (value "true" for plain open flags). */
export function openModalParams(current: URLSearchParams, name: ModalParam, value = "true", callback?: string): URLSearchParams {
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
export function useQueryModal(name: ModalParam, alsoRemove: readonly string[] = []): QueryModal {
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

/** Opens a modal from a button or a row: `const open = useOpenModal(); open("editSize", size._id)`. */
export function useOpenModal() {
  const [, setParams] = useSearchParams();
  return useCallback(
    (name: ModalParam, value?: string, callback?: string) => setParams((p) => openModalParams(p, name, value, callback)),
    [setParams],
  );
}
