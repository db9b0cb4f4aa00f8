import { useEffect } from "react";
import { Button, Descriptions, Modal, Result, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api, call } from "../../api/client";
import { useQueryModal } from "../../lib/queryModal";
import { FAILED_TEXT, useRefreshPayments } from "./api";
import { BuyCreditsSection } from "./BuyCreditsSection";

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

/** bankTransfer={paymentId}: the configured bank details with the payment's reference. */
export function BankTransferModal() {
  const modal = useQueryModal("bankTransfer");
  const id = modal.value && modal.value !== "true" ? modal.value : null;
  const bank = useQuery({
    queryKey: ["payments", "bank-details"],
    queryFn: async () => (await call(api.GET("/api/payment/bank-details"))).data,
    enabled: modal.open,
  });
  const payment = useQuery({
    queryKey: ["payments", "one", id],
    queryFn: async () => (await call(api.GET("/api/payment/{id}", { params: { path: { id: id! } } }), { silent: true })).data,
    enabled: modal.open && !!id,
    retry: false,
  });
  const b = bank.data;
  return (
    <Modal open={modal.open} onCancel={modal.close} footer={<Button onClick={modal.close}>Close</Button>} title="Bank transfer" destroyOnHidden>
      {b && !b.available ? (
        <Typography.Paragraph type="secondary">Bank transfer details are not configured on this installation.</Typography.Paragraph>
      ) : (
        <Descriptions column={1} bordered size="small" data-testid="bank-details">
          <Descriptions.Item label="Bank name">{b?.bankName}</Descriptions.Item>
          <Descriptions.Item label="Account number">{b?.accountNumber}</Descriptions.Item>
          <Descriptions.Item label="IBAN">{b?.iban}</Descriptions.Item>
          <Descriptions.Item label="Reference">
            <Typography.Text copyable={!!payment.data?.paymentSystemReferenceId} strong>
              {payment.data?.paymentSystemReferenceId ?? "—"}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        Put the reference in the transfer so we can match it to your payment.
      </Typography.Paragraph>
    </Modal>
  );
}
