import { useState } from "react";
import { Button, Card, Col, Flex, Row, Typography } from "antd";
import { CheckCircleFilled } from "@ant-design/icons";
import { toast } from "../../lib/toast";
import { addCreditPackage, buyCredits, money, REDIRECT_TOAST, useRefreshPayments, usePackages, type CreditPackage, type Sku } from "./api";
import { PayPalMark } from "./PayPalMark";
import "./payments.css";

export const REDIRECT_DELAY_MS = 1200;

/**
 * The three packages. For the signed-in user: pick one, then the PayPal button opens the
 * checkout (toast, then the redirect). With `forUser` (admin, user detail): each package
 * has an Add button that credits that user at once (a Manual payment).
 */
export function BuyCreditsSection({ forUser, onAdded, bare }: { forUser?: { _id: string; username: string }; onAdded?: () => void; bare?: boolean }) {
  const { data, isLoading } = usePackages(forUser?._id);
  const [selected, setSelected] = useState<Sku>("credits500");
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = useRefreshPayments();
  const admin = !!forUser;

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

  const add = async (sku: Sku) => {
    if (!forUser) return;
    setBusy(sku);
    try {
      const res = await addCreditPackage(forUser._id, sku);
      toast.success(res.message ?? "Credit added successfully");
      refresh();
      onAdded?.();
    } catch {
      /* toasted */
    } finally {
      setBusy(null);
    }
  };

  // For an admin these are the prices of that user (what the Manual payment records).
  const discount = !!data?.discountActive;
  const content = (
    <>
      <Row gutter={[16, 16]}>
        {(data?.packages ?? []).map((p) => (
          <Col xs={24} md={8} key={p.sku}>
            <PackageCard
              pkg={p}
              discount={discount}
              selected={!admin && selected === p.sku}
              onSelect={admin ? undefined : () => setSelected(p.sku as Sku)}
              action={
                admin ? (
                  <Button type="primary" block loading={busy === p.sku} disabled={!!busy && busy !== p.sku} onClick={() => add(p.sku as Sku)} data-testid={`add-${p.sku}`}>
                    Add {p.credits.toLocaleString("en-US")} credits
                  </Button>
                ) : null
              }
            />
          </Col>
        ))}
      </Row>
      {!admin && (
        <Flex vertical align="center" gap={8} style={{ marginTop: 24 }}>
          <Button
            size="large"
            className="gs-paypal-button"
            onClick={pay}
            loading={busy === "pay"}
            disabled={isLoading || !data || data.provider === "none"}
            data-testid="paypal-button"
            aria-label="Pay with PayPal"
          >
            <PayPalMark />
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {data?.provider === "test"
              ? "Test checkout: no money is charged on this installation."
              : data?.provider === "none"
                ? "Buying credits is not available on this installation."
                : "You pay securely on PayPal's page and come back here."}
          </Typography.Text>
        </Flex>
      )}
    </>
  );
  if (bare) return content;
  return (
    <Card title={admin ? `Add credit to ${forUser.username}` : "Buy Credits"} loading={isLoading} data-testid="buy-credits">
      {content}
    </Card>
  );
}

function PackageCard({ pkg, discount, selected, onSelect, action }: { pkg: CreditPackage; discount: boolean; selected: boolean; onSelect?: () => void; action: React.ReactNode }) {
  return (
    <Card
      hoverable={!!onSelect}
      onClick={onSelect}
      role={onSelect ? "radio" : undefined}
      aria-checked={onSelect ? selected : undefined}
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
      {action && <div style={{ marginTop: 16 }}>{action}</div>}
    </Card>
  );
}
