// The processing state machine of the print detail page, out of the screen:
// idle → awaiting (Proceed clicked, or manual create sent us here with `state.awaiting`)
// → progress events → Completed (success modal with the files) | Error (toast) | back to
// draft (cancelled). The socket's `print-{userId}` event ends it; a refetch of the print
// catches an end the socket missed.
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import type { Print, PrintFile, SheetSettings } from "../../api/types";
import { useSearchParams } from "../../lib/searchParams";
import { closeModalParams } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { useLiveEvent } from "../../providers/live";
import type { usePrintActions } from "./api";
import { successModalParams } from "./rules";

/** How often a Processing print is re-read in case its socket event was missed. */
export const PROCESSING_POLL_MS = 5000;

export interface PrintProcessingInput {
  id: string;
  print: Print | undefined;
  actions: ReturnType<typeof usePrintActions>;
  refetch: () => unknown;
}

export function usePrintProcessing({ id, print, actions, refetch }: PrintProcessingInput) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const [awaiting, setAwaiting] = useState(Boolean((location.state as { awaiting?: boolean } | null)?.awaiting));
  const [progress, setProgress] = useState<{ percent: number; stage?: string }>();
  const showFiles = (files: PrintFile[]) => setParams((p) => successModalParams(p, files), { replace: true });
  const finish = () => {
    setAwaiting(false);
    setProgress(undefined);
  };

  useLiveEvent("print", (e) => {
    if (e.printId !== id) return;
    void actions.refresh();
    if (e.status === "Completed") {
      finish();
      showFiles(e.fileId ?? []);
    } else if (e.status === "Error") {
      finish();
      toast.error(e.message || "An error occurred");
    } else finish(); // "In Draft": cancelled, here or in another tab
  });
  useLiveEvent("print-update", (e) => {
    if (e.printId === id) setProgress({ percent: e.percent, stage: e.stage });
  });

  // A job that ended before the socket heard of it (or on another tab): follow the print.
  const status = print?.status;
  useEffect(() => {
    if (!awaiting || !print) return;
    if (print.status === "Completed") {
      finish();
      if (!params.has("printSuccessModal")) showFiles(print.fileId);
    } else if (print.status !== "Processing") finish(); // failed, or cancelled back to draft
    // Only a change of status matters here, not every render's new print object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status]);

  // While Processing, poll slowly as a safety net for a missed socket event.
  useEffect(() => {
    if (status !== "Processing") return;
    const t = setInterval(() => void refetch(), PROCESSING_POLL_MS);
    return () => clearInterval(t);
  }, [status, refetch]);

  /**
   * Proceed from the warning modal. Awaiting starts before the request: on a quick machine
   * the job can finish (and its event arrive) before the request's onSuccess runs.
   */
  const proceed = (settings: SheetSettings | undefined) => {
    setParams((p) => closeModalParams(p, ["printWarningModal"]).params);
    setAwaiting(true);
    actions.process.mutate(settings, {
      onSuccess: (data) => {
        if (data?.status === "Completed" && data.fileId.length) {
          finish();
          showFiles(data.fileId);
        }
      },
      onError: finish,
    });
  };

  const cancel = () =>
    actions.cancel.mutate(undefined, {
      onSuccess: (message) => {
        finish();
        toast.success(message ?? "Processing cancelled");
      },
    });

  return { processing: awaiting || status === "Processing", progress, proceed, cancel, showFiles };
}
