import type { ReactNode } from "react";
import { ApiKeysCard } from "../../components/profile/ApiKeysCard";
import { WebhooksCard } from "../../components/profile/WebhooksCard";

/**
 * Extension point for /profile. The credits issue adds the Buy Credits packages and the
 * payment history here (the history with id "payments", so /profile/#payments scrolls
 * to it); ProfilePage renders every section below the account cards, in this order.
 */
export interface ProfileSection {
  id: string;
  render: () => ReactNode;
}

export const PROFILE_SECTIONS: ProfileSection[] = [
  { id: "api-keys", render: () => <ApiKeysCard /> },
  { id: "webhooks", render: () => <WebhooksCard /> },
];
