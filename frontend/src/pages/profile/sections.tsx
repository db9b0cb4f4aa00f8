import type { ReactNode } from "react";
import { BuyCreditsSection } from "../../components/payments/BuyCreditsSection";
import { PaymentHistory } from "../../components/payments/PaymentHistory";
import { BankTransferModal, BuyCreditModal, PaymentResultModal } from "../../components/payments/PaymentModals";

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
];
