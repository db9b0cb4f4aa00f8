import type { components } from "../../api/schema";

export type Statistics = components["schemas"]["StatisticsDto"];

/** The dashboard cards, in the product spec's order (then production's), with where each one leads. */
export const STAT_CARDS: ReadonlyArray<{ key: keyof Statistics; label: string; to: string }> = [
  { key: "pendingPrints", label: "Pending Prints", to: "/prints?status=In Draft" },
  { key: "totalPrints", label: "Total Prints", to: "/prints" },
  { key: "printedImages", label: "Printed Images", to: "/images" },
  { key: "usedCredits", label: "Used Credits", to: "/profile" },
  { key: "pendingOrders", label: "Pending Orders", to: "/orders?status=Pending" },
  { key: "totalOrders", label: "Total Orders", to: "/prints" },
  { key: "completedOrders", label: "Printed Orders", to: "/orders?status=Completed" },
  { key: "totalIntegrations", label: "Integrations", to: "/integrations" },
  { key: "queuedOrders", label: "Queued Orders", to: "/production" },
  { key: "inProductionOrders", label: "In Production", to: "/production" },
  { key: "fulfilledOrders", label: "Fulfilled Orders", to: "/orders" },
];
