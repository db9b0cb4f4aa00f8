import type { IntegrationTypeInfo } from "./api";

/** Until the server has answered, both types are offered (the server still refuses what it cannot connect). */
const FALLBACK: IntegrationTypeInfo[] = [
  { type: "WordPress", label: "WooCommerce (WordPress)", available: true, reason: null },
  { type: "Etsy", label: "Etsy", available: true, reason: null },
];

/** The Type select's options: a type this server cannot connect stays listed, disabled, with the reason. */
export function typeOptions(types: IntegrationTypeInfo[] | undefined) {
  return (types ?? FALLBACK).map((t) => ({
    value: t.type,
    label: t.available ? t.label : `${t.label} (not available on this server)`,
    disabled: !t.available,
    title: t.reason ?? undefined,
  }));
}
