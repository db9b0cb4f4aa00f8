import { useMutation } from "@tanstack/react-query";
import { useInvalidate } from "@refinedev/core";
import { api, call } from "../../api/client";
import type { components } from "../../api/schema";

export type SheetTemplate = components["schemas"]["TemplateDto"];
export type TemplateSlot = components["schemas"]["TemplateSlotDto"];
export type CreateTemplateBody = components["schemas"]["CreateTemplateDto"];
export type TemplateFill = components["schemas"]["TemplateFillInput"];

/**
 * Saving a template (from explicit slots or a print) and starting a print from one
 * (docs/prints.md "Templates"). Errors are left to the caller to show (`silent`): the
 * server's message names the slot at fault.
 */
export function useTemplateActions() {
  const invalidate = useInvalidate();
  const create = useMutation({
    mutationFn: (body: CreateTemplateBody) => call(api.POST("/api/templates", { body }), { silent: true }),
    onSuccess: () => invalidate({ resource: "templates", invalidates: ["list"] }),
  });
  const createPrint = useMutation({
    mutationFn: ({ id, items }: { id: string; items: TemplateFill[] }) => call(api.POST("/api/templates/{id}/prints", { params: { path: { id } }, body: { items } }), { silent: true }),
    onSuccess: () => invalidate({ resource: "print", invalidates: ["list"] }),
  });
  return { create, createPrint };
}

/** "2 × 1.19 in": a slot's box as placed. */
export const slotSize = (s: Pick<TemplateSlot, "width" | "height">) => `${round2(s.width)} × ${round2(s.height)} in`;
const round2 = (v: number) => String(Math.round(v * 100) / 100);

/** What a slot held, for the seller: "front · Adult (2 in)". */
export function slotHint(s: TemplateSlot): string {
  const size = s.sizeName ? `${s.sizeName}${s.sizeValue ? ` (${s.sizeValue} in)` : ""}` : s.sizeValue ? `${s.sizeValue} in` : "";
  return [s.label, size].filter(Boolean).join(" · ");
}
