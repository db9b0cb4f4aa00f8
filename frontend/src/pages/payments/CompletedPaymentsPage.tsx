import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the payments issue builds this screen (spec §2 Completed Payments).
export function CompletedPaymentsPage() {
  return (
    <PageShell title="Completed Payments">
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
