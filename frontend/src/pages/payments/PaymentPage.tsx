import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the payments issue builds this screen (spec §2 Payment).
export function PaymentPage() {
  return (
    <PageShell title="Payment">
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
