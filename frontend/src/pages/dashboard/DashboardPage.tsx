import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";
import { DashboardPayments } from "../../components/payments/DashboardPayments";

// Placeholder until the dashboard and statistics issue builds this screen (spec §2 Dashboard).
export function DashboardPage() {
  return (
    <PageShell title="Dashboard">
      <Card>
        <Empty />
      </Card>
      {/* --- payments slot (issue 10): banner, buy-credits section, payment-result modal --- */}
      <div style={{ marginTop: 24 }}>
        <DashboardPayments />
      </div>
      {/* --- end payments slot --- */}
    </PageShell>
  );
}
