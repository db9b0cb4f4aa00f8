import { useEffect, type ReactNode } from "react";
import { Button, Descriptions, Modal, Result, Skeleton, Typography } from "antd";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { useQueryModal } from "../../lib/queryModal";
import { FAILED_TEXT, isBankTransfer, useRefreshPayments } from "./api";
import { StatusTag } from "./PaymentHistory";
import { BuyCreditsSection } from "./BuyCreditsSection";
import { money } from "../../lib/money";
import { useApiQuery } from "../../api/query";
import { useResourceOne } from "../../hooks/useResource";

/** PaymentResult=Completed|Pending|Cancelled: where the browser lands after the checkout. */
export function PaymentResultModal() {
  const modal = useQueryModal("PaymentResult");
  const navigate = useNavigate();
  const refresh = useRefreshPayments();
  const value = modal.value;
  useEffect(() => {
    if (value) refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  if (!modal.open) return null;
  const result =
    value === "Completed" ? (
      <Result
        status="success"
        title="Payment Successful"
        subTitle="Your credits have been added to your account."
        extra={
          <Button type="primary" onClick={() => navigate("/profile/#payments")} data-testid="payment-history-link">
            View payment history
          </Button>
        }
      />
    ) : value === "Pending" ? (
      <Result status="warning" title="Payment Pending" subTitle="Your credits will be added as soon as the payment is confirmed." />
    ) : (
      <Result status="error" title="Payment Cancelled" subTitle={FAILED_TEXT} />
    );
  return (
    <Modal open onCancel={modal.close} footer={null} centered destroyOnHidden data-testid="payment-result">
      {result}
    </Modal>
  );
}

/** buyCredit (e.g. buyCredit=100 from the empty payment history): the packages in a modal. */
export function BuyCreditModal() {
  const modal = useQueryModal("buyCredit");
  return (
    <Modal open={modal.open} onCancel={modal.close} footer={null} width={880} title="Buy Credits" destroyOnHidden>
      {modal.open && <BuyCreditsSection bare />}
    </Modal>
  );
}

/**
 * bankTransfer={paymentId}: how to pay a bank-transfer payment — the configured bank
 * details, the amount and the payment's reference, which the buyer writes on the transfer
 * so the admin can match the money to it. Anything else (no id, not a bank transfer, bank
 * details no longer configured) says so instead of showing half of it.
 */
export function BankTransferModal() {
  const modal = useQueryModal("bankTransfer");
  const id = modal.value && modal.value !== "true" ? modal.value : null;
  const bank = useApiQuery(["/api/payment/bank-details"], () => api.GET("/api/payment/bank-details"), { enabled: modal.open, select: (r) => r.data });
  const { result: p, query: payment } = useResourceOne("payment", id ?? undefined, {
    errorNotification: false,
    queryOptions: { enabled: modal.open, retry: false },
  });
  const b = bank.data;
  const loading = bank.isLoading || (!!id && payment.isLoading);
  let body: ReactNode;
  if (loading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (!b?.available) body = <Typography.Paragraph>Bank transfer is not available on this installation.</Typography.Paragraph>;
  else if (!p || !isBankTransfer(p) || !p.paymentSystemReferenceId) body = <Typography.Paragraph>This payment is not a bank transfer.</Typography.Paragraph>;
  else
    body = (
      <>
        <Descriptions column={1} bordered size="small" data-testid="bank-details">
          <Descriptions.Item label="Amount">
            <Typography.Text strong>{money(p.price, p.currency)}</Typography.Text> for {p.credits.toLocaleString("en-US")} credits
          </Descriptions.Item>
          <Descriptions.Item label="Bank name">{b.bankName}</Descriptions.Item>
          {b.accountNumber && <Descriptions.Item label="Account number"><Typography.Text copyable>{b.accountNumber}</Typography.Text></Descriptions.Item>}
          {b.iban && <Descriptions.Item label="IBAN"><Typography.Text copyable>{b.iban}</Typography.Text></Descriptions.Item>}
          <Descriptions.Item label="Reference">
            <Typography.Text copyable strong data-testid="bank-reference">{p.paymentSystemReferenceId}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="Status"><StatusTag status={p.status} /></Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }}>
          {p.status === "Pending"
            ? `Put the reference ${p.paymentSystemReferenceId} in the transfer so we can match it to your payment. Your credits are added when the money arrives.`
            : "This transfer has been settled."}
        </Typography.Paragraph>
      </>
    );
  return (
    <Modal open={modal.open} onCancel={modal.close} footer={<Button onClick={modal.close}>Close</Button>} title="Pay by bank transfer" destroyOnHidden>
      {body}
    </Modal>
  );
}
