import type { ReactNode } from "react";
import { ApiKeysCard } from "../../components/profile/ApiKeysCard";
import { WebhooksCard } from "../../components/profile/WebhooksCard";
import { BuyCreditsSection } from "../../components/payments/BuyCreditsSection";
import { PaymentHistory } from "../../components/payments/PaymentHistory";
import { BankTransferModal, BuyCreditModal, PaymentResultModal } from "../../components/payments/PaymentModals";

/**
 * The sections of /profile below the account cards, in this order: Buy Credits packages,
 * the payment history (id "payments", so /profile/#payments scrolls to it), then the
 * integrator's API keys and webhooks.
 */
export interface ProfileSection {
  id: string;
  render: () => ReactNode;
}

export const PROFILE_SECTIONS: ProfileSection[] = [
  { id: "buy-credits", render: () => <BuyCreditsSection /> },
  {
    id: "payments",
    render: () => (
      <>
        <PaymentHistory />
        <BuyCreditModal />
        <BankTransferModal />
        <PaymentResultModal />
      </>
    ),
  },
  { id: "api-keys", render: () => <ApiKeysCard /> },
  { id: "webhooks", render: () => <WebhooksCard /> },
];
