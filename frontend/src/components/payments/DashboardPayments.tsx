import { BuyCreditsSection } from "./BuyCreditsSection";
import { FirstMonthBanner } from "./FirstMonthBanner";
import { BankTransferModal, BuyCreditModal, PaymentResultModal } from "./PaymentModals";

/** The dashboard's payments slot: first-month banner, Buy Credits and the payment-result modal. */
export function DashboardPayments() {
  return (
    <>
      <FirstMonthBanner />
      <BuyCreditsSection />
      <PaymentResultModal />
      <BuyCreditModal />
      <BankTransferModal />
    </>
  );
}
