import { Col, Row } from "antd";
import { ApiOutlined, CarOutlined, CheckCircleOutlined, ClockCircleOutlined, FileImageOutlined, InboxOutlined, PictureOutlined, PrinterOutlined, ShoppingCartOutlined, ThunderboltOutlined, WalletOutlined } from "@ant-design/icons";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { PageShell } from "../../components/common/PageShell";
import { DashboardPayments } from "../../components/payments/DashboardPayments";
import { StatCard } from "../../components/dashboard/StatCard";
import { STAT_CARDS } from "../../components/dashboard/statCards";
import { useLiveEvent } from "../../providers/live";
import { useApiQuery, useInvalidateApi } from "../../api/query";

const ICONS = {
  pendingPrints: <ClockCircleOutlined />,
  totalPrints: <PrinterOutlined />,
  printedImages: <PictureOutlined />,
  usedCredits: <WalletOutlined />,
  pendingOrders: <ShoppingCartOutlined />,
  totalOrders: <FileImageOutlined />,
  completedOrders: <CheckCircleOutlined />,
  totalIntegrations: <ApiOutlined />,
  queuedOrders: <InboxOutlined />,
  inProductionOrders: <ThunderboltOutlined />,
  fulfilledOrders: <CarOutlined />,
} as const;

/** The statistics cards, kept current by print, notification and production events. */
export function DashboardPage() {
  const navigate = useNavigate();
  const stats = useApiQuery(["/api/statistics"], () => api.GET("/api/statistics"), { select: (r) => r.data });
  const invalidateApi = useInvalidateApi();
  const refresh = () => void invalidateApi("/api/statistics");
  useLiveEvent("print", refresh);
  useLiveEvent("notification", refresh);
  useLiveEvent("production", refresh);

  return (
    <PageShell title="Dashboard">
      <Row gutter={[16, 16]}>
        {STAT_CARDS.map((c) => (
          <Col key={c.key} xs={24} sm={12} xl={6}>
            <StatCard label={c.label} value={stats.data?.[c.key]} icon={ICONS[c.key]} loading={stats.isLoading} onOpen={() => navigate(c.to)} />
          </Col>
        ))}
      </Row>
      {/* The first-month banner, the buy-credits section and the payment-result modal. */}
      <div style={{ marginTop: 24 }}>
        <DashboardPayments />
      </div>
    </PageShell>
  );
}
