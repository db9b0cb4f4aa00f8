import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the dashboard and statistics issue builds this screen (spec §2 Dashboard).
export function DashboardPage() {
  return (
    <PageShell title="Dashboard">
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
