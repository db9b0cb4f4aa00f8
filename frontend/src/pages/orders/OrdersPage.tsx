import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the orders issue builds this screen (spec §2 Integration Orders).
export function OrdersPage() {
  return (
    <PageShell title="Integration Orders">
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
