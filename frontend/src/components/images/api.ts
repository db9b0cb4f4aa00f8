import { ApiError, DEFAULT_ERROR, http } from "../../api/http";
import { toast } from "../../lib/toast";
import type { ImageCategory, LibraryImage, UploadResult } from "./types";

/**
 * Sends the whole batch in one multipart request through XHR, the only browser API that
 * reports upload progress. `onProgress(loaded, total)` receives raw byte counts.
 */
export function uploadImages(
  files: File[],
  fields: { imageCategoryId?: string | null; score: number },
  onProgress: (loaded: number, total: number) => void,
): Promise<UploadResult> {
  const body = new FormData();
  for (const file of files) body.append("files", file, file.name);
  if (fields.imageCategoryId) body.append("imageCategoryId", fields.imageCategoryId);
  body.append("score", String(fields.score));

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/images/bulk-upload");
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    const fail = (message: string, status: number) => {
      toast.error(message);
      reject(new ApiError(message, status));
    };
    xhr.onerror = () => fail(DEFAULT_ERROR, 0);
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      const res = parsed as Partial<UploadResult> | null;
      // 400 with per-file errors means every file was refused: still a per-file answer.
      if ((xhr.status >= 200 && xhr.status < 300) || (xhr.status === 400 && Array.isArray(res?.errors) && res.errors.length)) {
        resolve({ data: res?.data ?? [], errors: res?.errors ?? [], message: res?.message });
        return;
      }
      const message = (parsed as { message?: unknown } | null)?.message;
      fail(Array.isArray(message) ? message.join(", ") : typeof message === "string" && message ? message : DEFAULT_ERROR, xhr.status);
    };
    xhr.send(body);
  });
}

export const createCategory = (name: string) =>
  http<{ data: ImageCategory }>("/image-categories", { method: "POST", body: { name } }).then((r) => r.data);

export const updateImage = (id: string, body: { name: string; imageCategoryId: string | null; score: number }) =>
  http<{ data: LibraryImage }>(`/images/${id}`, { method: "PUT", body }).then((r) => r.data);

export const bulkChangeCategory = (ids: string[], imageCategoryId: string | null) =>
  http(`/images/bulk-update`, { method: "PUT", body: { images: ids.map((_id) => ({ _id, imageCategoryId })) } });

export const bulkDeleteImages = (ids: string[]) => http(`/images/bulk-delete`, { method: "POST", body: { ids } });

export const addPrintItem = (printId: string, item: { imageId: string; sizeId: string; quantity: number }) =>
  http(`/print/${encodeURIComponent(printId)}/printItem`, { method: "POST", body: item });
