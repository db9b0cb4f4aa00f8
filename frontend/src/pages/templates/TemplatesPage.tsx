import { Button, Card, Empty, Flex, Space, Tooltip, Typography } from "antd";
import { DeleteOutlined, EditOutlined, FileAddOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { Link } from "react-router";
import { PageShell } from "../../components/common/PageShell";
import { DataTable, type DataColumn } from "../../components/table/DataTable";
import { SearchBox } from "../../components/table/SearchBox";
import type { SheetTemplate } from "../../components/templates/api";
import { TemplateDrawing } from "../../components/templates/TemplateDrawing";
import { DeleteTemplateModal, NewPrintFromTemplateModal, RenameTemplateModal } from "../../components/templates/TemplateModals";
import { useResourceList } from "../../hooks/useResource";
import { useOpenModal } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";

export const NO_TEMPLATES = "You have no templates yet. Open a print, choose Edit layout, arrange the designs and click Save as template.";

/** Sheet templates: where designs sit on a sheet, to start new prints with other artwork in the same slots (docs/frontend.md "Templates"). */
export function TemplatesPage() {
  const list = useUrlList();
  const { result, query } = useResourceList("templates", { ...list.refine });
  const open = useOpenModal();
  const total = result.total ?? 0;

  const columns: DataColumn<SheetTemplate>[] = [
    { key: "drawing", title: "Slots", width: 110, render: (_, t) => <TemplateDrawing template={t} width={90} /> },
    {
      key: "name",
      title: "Name",
      dataIndex: "name",
      sortField: "name",
      render: (_, t) => (
        <Flex vertical>
          <Typography.Text strong>{t.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t.slots.length} {t.slots.length === 1 ? "slot" : "slots"} · {t.sheets === 1 ? "1 sheet" : `${t.sheets} sheets`}, {t.settings.width} in wide · {t.settings.nesting === "shape" ? "true shape" : "rectangles"}
          </Typography.Text>
        </Flex>
      ),
    },
    { key: "createdAt", title: "Created", dataIndex: "createdAt", sortField: "createdAt", render: (v: string) => dayjs(v).format("MMM D, YYYY") },
    {
      key: "actions",
      title: "",
      align: "right",
      render: (_, t) => (
        <Space wrap>
          <Button type="primary" size="small" icon={<FileAddOutlined />} onClick={() => open("newPrintFromTemplate", t._id)} aria-label={`New print from ${t.name}`}>New print</Button>
          <Tooltip title="Rename"><Button size="small" icon={<EditOutlined />} onClick={() => open("renameTemplate", t._id)} aria-label={`Rename ${t.name}`} /></Tooltip>
          <Tooltip title="Delete"><Button size="small" danger icon={<DeleteOutlined />} onClick={() => open("deleteTemplate", t._id)} aria-label={`Delete ${t.name}`} /></Tooltip>
        </Space>
      ),
    },
  ];

  // The empty state is for a seller with no templates at all, not for a search without hits.
  const empty = !query.isLoading && !query.isError && total === 0 && list.state.page === 1 && !list.state.search;

  return (
    <PageShell title="Templates">
      <Card>
        {empty ? (
          <Empty description={NO_TEMPLATES} data-testid="templates-empty">
            <Link to="/prints">Go to Prints</Link>
          </Empty>
        ) : (
          <>
            <Flex style={{ marginBottom: 16 }}>
              <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Search templates" />
            </Flex>
            <DataTable<SheetTemplate> columns={columns} list={list} dataSource={result.data} total={total} loading={query.isLoading} />
          </>
        )}
      </Card>
      <NewPrintFromTemplateModal />
      <RenameTemplateModal />
      <DeleteTemplateModal />
    </PageShell>
  );
}
