import { Card, Empty } from "antd";
import { useParams } from "react-router";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the integrations issue builds this screen (spec §2 route list).
export function IntegrationDetailPage() {
  const { id } = useParams();
  return (
    <PageShell title="Integration" crumbs={[{ title: "Integrations", to: "/integrations" }, { title: id }]}>
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
