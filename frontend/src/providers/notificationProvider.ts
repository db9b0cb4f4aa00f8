import type { NotificationProvider } from "@refinedev/core";
import { toast } from "../lib/toast";

/**
 * Refine's automatic error notifications put the server's message in `description`
 * and a generic "Error (status code: …)" in `message`; the spec wants only the server's
 * message, so errors show the description when there is one.
 */
export const notificationProvider: NotificationProvider = {
  open({ type, message, description, key }) {
    if (type === "error") toast.error(description || message || "An error occurred", undefined, key);
    else if (type === "success") toast.success(message, description, key);
    else toast.info(message, description, key);
  },
  close(key) {
    toast.close(key);
  },
};
