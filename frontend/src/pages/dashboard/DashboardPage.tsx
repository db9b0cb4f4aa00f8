import { Col, Row } from "antd";
import {
  ApiOutlined, CheckCircleOutlined, ClockCircleOutlined, FileImageOutlined, PictureOutlined, PrinterOutlined, ShoppingCartOutlined, WalletOutlined,
} from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api, call } from "../../api/client";
import { PageShell } from "../../components/common/PageShell";
import { DashboardPayments } from "../../components/payments/DashboardPayments";
import { StatCard } from "../../components/dashboard/StatCard";
import { STAT_CARDS } from "../../components/dashboard/statCards";
import { useLiveEvent } from "../../providers/live";

const ICONS = {
  pendingPrints: <ClockCircleOutlined />,
  totalPrints: <PrinterOutlined />,
  printedImages: <PictureOutlined />,
  usedCredits: <WalletOutlined />,
  pendingOrders: <ShoppingCartOutlined />,
  totalOrders: <FileImageOutlined />,
  completedOrders: <CheckCircleOutlined />,
  totalIntegrations: <ApiOutlined />,
} as const;

export const STATISTICS_KEY = ["statistics"] as const;

/** The eight statistics cards, kept current by print and notification events. */
export function DashboardPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const stats = useQuery({
    queryKey: STATISTICS_KEY,
    queryFn: () => call(api.GET("/api/statistics")).then((r) => r.data),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: STATISTICS_KEY });
  useLiveEvent("print", refresh);
  useLiveEvent("notification", refresh);

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
