import { api, call } from "../../api/client";
import { ApiError, DEFAULT_ERROR, messageOf } from "../../api/errors";
import type { paths } from "../../api/schema";
import { toast } from "../../lib/toast";
import type { UploadResult } from "../../api/types";

const UPLOAD_PATH = "/api/images/bulk-upload" satisfies keyof paths;

/**
 * Sends the whole batch in one multipart request through XHR, the only browser API that
 * reports upload progress (`onProgress(loaded, total)` receives raw byte counts). It is the
 * one call outside the typed client; its path and answer are still the schema's.
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
    xhr.open("POST", UPLOAD_PATH);
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
      let parsed: unknown;
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
      fail(messageOf(parsed), xhr.status);
    };
    xhr.send(body);
  });
}

export const createCategory = async (name: string) => (await call(api.POST("/api/image-categories", { body: { name } }))).data;

export const bulkChangeCategory = (ids: string[], imageCategoryId: string | null) =>
  call(api.PUT("/api/images/bulk-update", { body: { images: ids.map((_id) => ({ _id, imageCategoryId })) } }));

export const bulkDeleteImages = (ids: string[]) => call(api.POST("/api/images/bulk-delete", { body: { ids } }));

export const addPrintItem = (printId: string, item: { imageId: string; sizeId: string; quantity: number }) =>
  call(api.POST("/api/print/{id}/printItem", { params: { path: { id: printId } }, body: item }));
