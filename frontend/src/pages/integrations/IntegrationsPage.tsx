import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the integrations issue builds this screen (spec §2 Integrations).
export function IntegrationsPage() {
  return (
    <PageShell title="Integrations">
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
