import { Button, Card, Descriptions, Result } from "antd";
import { Link, useParams } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { FullScreenSpinner } from "../../components/common/Spinners";
import { FAILED_TEXT, isBankTransfer } from "../../components/payments/api";
import { BuyCreditsSection } from "../../components/payments/BuyCreditsSection";
import { FirstMonthBanner } from "../../components/payments/FirstMonthBanner";
import { BankTransferModal, PaymentResultModal } from "../../components/payments/PaymentModals";
import { formatDate, StatusTag } from "../../components/payments/PaymentHistory";
import { openModalParams } from "../../lib/queryModal";
import { useSearchParams } from "../../lib/searchParams";
import { money } from "../../lib/money";
import { useResourceOne } from "../../hooks/useResource";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /payment: the packages; /payment/{id}: one of the user's payments, or 'Payment Failed' when there is none. */
export function PaymentPage() {
  const { id } = useParams();
  if (!id) {
    return (
      <PageShell title="Payment">
        <FirstMonthBanner />
        <BuyCreditsSection />
        <BankTransferModal />
        <PaymentResultModal />
      </PageShell>
    );
  }
  return <OnePayment id={id} />;
}

function OnePayment({ id }: { id: string }) {
  const [, setParams] = useSearchParams();
  const { result: data, query } = useResourceOne("payment", id, { errorNotification: false, queryOptions: { enabled: UUID.test(id), retry: false } });
  const { isLoading, isError } = query;
  if (UUID.test(id) && isLoading) return <FullScreenSpinner />;
  if (!data || isError) {
    return (
      <PageShell title="Payment Failed" crumbs={[{ title: "Payment" }]} heading="Payment">
        <Result
          status="error"
          title="Payment Failed"
          subTitle={FAILED_TEXT}
          extra={<Link to="/dashboard"><Button type="primary">Go to Homepage</Button></Link>}
          data-testid="payment-failed"
        />
      </PageShell>
    );
  }
  return (
    <PageShell title="Payment" crumbs={[{ title: "Payments", to: "/profile/#payments" }, { title: data.paymentSystemReferenceId ?? "Payment" }]}>
      <Card
        extra={
          data.status === "Pending" &&
          isBankTransfer(data) && <Button onClick={() => setParams((p) => openModalParams(p, "bankTransfer", data._id))}>How to pay</Button>
        }
        title={`${data.credits.toLocaleString("en-US")} credits`}
      >
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="Payment Status"><StatusTag status={data.status} /></Descriptions.Item>
          <Descriptions.Item label="Payment Amount">{money(data.price, data.currency)}</Descriptions.Item>
          <Descriptions.Item label="Package">{data.packageSku}</Descriptions.Item>
          <Descriptions.Item label="Payment Type">{data.type}</Descriptions.Item>
          <Descriptions.Item label="Reference">{data.paymentSystemReferenceId ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="Purchase Date">{formatDate(data.purchaseDate)}</Descriptions.Item>
          {data.completedAt && <Descriptions.Item label="Completed">{formatDate(data.completedAt)}</Descriptions.Item>}
          {data.refundedAt && <Descriptions.Item label="Refunded">{formatDate(data.refundedAt)}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <BankTransferModal />
      <PaymentResultModal />
    </PageShell>
  );
}
