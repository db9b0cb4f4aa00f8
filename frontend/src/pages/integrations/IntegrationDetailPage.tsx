import { Card, Col, Empty, Row, Statistic } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api, call } from "../../api/client";
import { PageShell } from "../../components/common/PageShell";
import { useIntegration } from "../../components/integrations/api";
import { TypeIcon } from "../../components/integrations/TypeIcon";

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
  return useQuery({
    queryKey: ["orders", "count", id, status ?? "all"],
    enabled: !!id,
    queryFn: async () => {
      const res = await call(api.GET("/api/orders", { params: { query: { integrationId: id, status, limit: 1 } } }));
      return res.pagination.totalDocuments;
    },
  });
}
