import { useState } from "react";
import { Button, Card, Col, Flex, Row, Typography } from "antd";
import { BankOutlined, CheckCircleFilled } from "@ant-design/icons";
import { openModalParams } from "../../lib/queryModal";
import { useSearchParams } from "../../lib/searchParams";
import { toast } from "../../lib/toast";
import { buyCredits, REDIRECT_TOAST, startBankTransfer, useRefreshPayments, usePackages, type CreditPackage, type Sku } from "./api";
import { PayPalMark } from "./PayPalMark";
import "./payments.css";
import { money } from "../../lib/money";

export const REDIRECT_DELAY_MS = 1200;

/**
 * The three packages for the signed-in user: pick one, then the PayPal button opens the
 * checkout (toast, then the redirect). Where the server has bank details configured, the
 * same package can be paid by bank transfer instead: that opens the transfer details with
 * the payment's own reference (bankTransfer={paymentId}); otherwise it is not offered.
 */
export function BuyCreditsSection({ bare }: { bare?: boolean }) {
  const { data, isLoading } = usePackages();
  const [selected, setSelected] = useState<Sku>("credits500");
  const [busy, setBusy] = useState<"pay" | "bank" | null>(null);
  const [, setParams] = useSearchParams();
  const refresh = useRefreshPayments();

  const pay = async () => {
    setBusy("pay");
    try {
      const res = await buyCredits(selected);
      if (res.link && res.status === "Pending") {
        toast.info(REDIRECT_TOAST);
        // A moment to read the toast, then the provider's page (busy until the browser leaves).
        setTimeout(() => window.location.assign(res.link), REDIRECT_DELAY_MS);
        return;
      }
    } catch {
      /* toasted by call() */
    }
    setBusy(null);
  };

  const bankTransfer = async () => {
    setBusy("bank");
    try {
      const payment = await startBankTransfer(selected);
      refresh();
      // From the buyCredit modal: that modal gives way to the transfer details.
      setParams((q) => {
        const next = new URLSearchParams(q);
        next.delete("buyCredit");
        return openModalParams(next, "bankTransfer", payment._id);
      });
    } catch {
      /* toasted by call() */
    } finally {
      setBusy(null);
    }
  };

  const discount = !!data?.discountActive;
  const content = (
    <>
      <Row gutter={[16, 16]}>
        {(data?.packages ?? []).map((p) => (
          <Col xs={24} md={8} key={p.sku}>
            <PackageCard pkg={p} discount={discount} selected={selected === p.sku} onSelect={() => setSelected(p.sku)} />
          </Col>
        ))}
      </Row>
      <Flex vertical align="center" gap={8} style={{ marginTop: 24 }}>
        <Button
          size="large"
          className="gs-paypal-button"
          onClick={pay}
          loading={busy === "pay"}
          disabled={isLoading || !data || data.provider === "none" || busy === "bank"}
          data-testid="paypal-button"
          aria-label="Pay with PayPal"
        >
          <PayPalMark />
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {data?.provider === "test"
            ? "Test checkout: no money is charged on this installation."
            : data?.provider === "none"
              ? "Paying online is not available on this installation."
              : "You pay securely on PayPal's page and come back here."}
        </Typography.Text>
        {data?.bankTransfer && (
          <Button icon={<BankOutlined />} onClick={bankTransfer} loading={busy === "bank"} disabled={busy === "pay"} data-testid="bank-transfer-button">
            Pay by bank transfer
          </Button>
        )}
      </Flex>
    </>
  );
  if (bare) return content;
  return (
    <Card title="Buy Credits" loading={isLoading} data-testid="buy-credits">
      {content}
    </Card>
  );
}

function PackageCard({ pkg, discount, selected, onSelect }: { pkg: CreditPackage; discount: boolean; selected: boolean; onSelect: () => void }) {
  return (
    <Card
      hoverable
      onClick={onSelect}
      role="radio"
      aria-checked={selected}
      data-testid={`package-${pkg.sku}`}
      className={`gs-package${selected ? " gs-package--selected" : ""}`}
      styles={{ body: { textAlign: "center" } }}
    >
      {selected && <CheckCircleFilled className="gs-package__check" />}
      <Typography.Title level={3} style={{ margin: 0 }}>{pkg.credits.toLocaleString("en-US")}</Typography.Title>
      <Typography.Text type="secondary">credits</Typography.Text>
      <div style={{ margin: "12px 0" }}>
        {discount ? (
          <>
            <Typography.Text delete type="secondary" style={{ marginRight: 8 }} data-testid="list-price">{money(pkg.listPrice)}</Typography.Text>
            <Typography.Text strong style={{ fontSize: 22, color: "#4f46e5" }} data-testid="price">{money(pkg.price)}</Typography.Text>
          </>
        ) : (
          <Typography.Text strong style={{ fontSize: 22 }} data-testid="price">{money(pkg.listPrice)}</Typography.Text>
        )}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {(((discount ? pkg.price : pkg.listPrice) / pkg.credits) * 100).toFixed(1)}¢ per credit
      </Typography.Text>
    </Card>
  );
}
