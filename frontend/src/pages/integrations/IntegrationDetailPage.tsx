import { Card, Col, Empty, Row, Statistic } from "antd";
import { useParams } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { useIntegration } from "../../components/integrations/api";
import { TypeIcon } from "../../components/integrations/TypeIcon";
import { useResourceList } from "../../hooks/useResource";

/** Integration detail: the integration's name, order count, printed count, then a placeholder area. */
export function IntegrationDetailPage() {
  const { id } = useParams();
  const { data: integration } = useIntegration(id);
  const orders = useOrderCount(id);
  const printed = useOrderCount(id, "Completed");
  return (
    <PageShell title={integration?.name ?? "Integration"} crumbs={[{ title: "Integrations", to: "/integrations" }, { title: integration?.name ?? id }]}>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card><Statistic title="Name" valueRender={() => <span>{integration && <TypeIcon type={integration.type} />} {integration?.name}</span>} /></Card>
        </Col>
        <Col xs={12} md={8}>
          <Card><Statistic title="Orders" value={orders.data ?? 0} loading={orders.isLoading} /></Card>
        </Col>
        <Col xs={12} md={8}>
          <Card><Statistic title="Printed" value={printed.data ?? 0} loading={printed.isLoading} /></Card>
        </Col>
        <Col span={24}>
          <Card><Empty /></Card>
        </Col>
      </Row>
    </PageShell>
  );
}

function useOrderCount(id: string | undefined, status?: "Completed") {
  const { result, query } = useResourceList("orders", {
    pagination: { currentPage: 1, pageSize: 1 },
    filters: [
      { field: "integrationId", operator: "eq", value: id },
      { field: "status", operator: "eq", value: status },
    ],
    queryOptions: { enabled: !!id },
  });
  return { data: result.total, isLoading: query.isLoading };
}
