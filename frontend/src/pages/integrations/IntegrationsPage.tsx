import { useEffect } from "react";
import { Button, Card, Empty, Space, Tag, Tooltip } from "antd";
import { ApiOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Link } from "react-router";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { PageShell } from "../../components/common/PageShell";
import { DEFAULT_QUERY_ERROR, goToShop, NO_INTEGRATIONS, QUERY_ERRORS, useConnectIntegration, useIntegrations, type Integration } from "../../components/integrations/api";
import { AddIntegrationModal, DeleteIntegrationModal, EditIntegrationModal } from "../../components/integrations/IntegrationModals";
import { TypeIcon } from "../../components/integrations/TypeIcon";
import { useOpenModal } from "../../lib/queryModal";
import { useSearchParams } from "../../lib/searchParams";
import { toast } from "../../lib/toast";

/** Integrations page: a table of Name, Type (icon), Connected, Delete. */
export function IntegrationsPage() {
  const [params, setParams] = useSearchParams();
  const { data, isLoading } = useIntegrations();
  const connect = useConnectIntegration();
  const open = useOpenModal();

  // Back from Etsy / WooCommerce: ?error=<code>, ?success=0|1, ?connected=<id>.
  useEffect(() => {
    const error = params.get("error");
    const success = params.get("success");
    const connected = params.get("connected");
    if (!error && !success && !connected) return;
    if (error) toast.error(QUERY_ERRORS[error] ?? DEFAULT_QUERY_ERROR);
    else if (success === "0") toast.error(QUERY_ERRORS.auth_failed);
    else toast.success("Integration connected");
    setParams((p) => {
      for (const k of ["error", "success", "connected", "user_id", "integration"]) p.delete(k);
      return p;
    }, { replace: true });
  }, [params, setParams]);

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => open("addIntegration")}>
      Add Integration
    </Button>
  );
  const columns = [
    { key: "name", title: "Name", render: (_: unknown, i: Integration) => <Link to={`/integrations/${i._id}`}>{i.name}</Link> },
    { key: "type", title: "Type", render: (_: unknown, i: Integration) => <TypeIcon type={i.type} /> },
    {
      key: "connected",
      title: "Connected",
      render: (_: unknown, i: Integration) =>
        i.connected ? (
          <Tag color="success">Connected</Tag>
        ) : (
          <Tooltip title={i.syncError ?? undefined}>
            <Button size="small" icon={<ApiOutlined />} loading={connect.isPending && connect.variables === i._id}
              onClick={() => connect.mutate(i._id, { onSuccess: (r) => (r.connectUrl ? goToShop(r.connectUrl) : toast.success(r.message)) })}>
              Connect
            </Button>
          </Tooltip>
        ),
    },
    {
      key: "delete",
      title: "Delete",
      align: "right" as const,
      render: (_: unknown, i: Integration) => (
        <Space>
          <Tooltip title="Edit"><Button size="small" icon={<EditOutlined />} aria-label={`Edit ${i.name}`} onClick={() => open("editIntegration", i._id)} /></Tooltip>
          <Tooltip title="Delete"><Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${i.name}`} onClick={() => open("deleteIntegration", i._id)} /></Tooltip>
        </Space>
      ),
    },
  ];
  const empty = !isLoading && (data?.length ?? 0) === 0;
  return (
    <PageShell title="Integrations" extra={empty ? undefined : addButton}>
      <Card>
        {empty ? (
          <Empty description={NO_INTEGRATIONS}>{addButton}</Empty>
        ) : (
          <ResponsiveTable<Integration> rowKey="_id" columns={columns} dataSource={data} loading={isLoading} pagination={false} locale={{ emptyText: "No data" }} scroll={{ x: "max-content" }} />
        )}
      </Card>
      <AddIntegrationModal />
      <EditIntegrationModal />
      <DeleteIntegrationModal />
    </PageShell>
  );
}
