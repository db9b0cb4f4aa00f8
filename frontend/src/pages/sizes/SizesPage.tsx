import { Button, Card, Empty, Flex, Space, Tooltip } from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { PageShell } from "../../components/common/PageShell";
import { AddSizeModal, DeleteSizeModal, EditSizeModal } from "../../components/sizes/SizeModals";
import type { Size } from "../../api/types";
import { DataTable, type DataColumn } from "../../components/table/DataTable";
import { SearchBox } from "../../components/table/SearchBox";
import { useOpenModal } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";
import { useResourceList } from "../../hooks/useResource";

export const NO_SIZES = "You have no sizes yet. Click the button below to add a new size.";

export function SizesPage() {
  const list = useUrlList();
  const { result, query } = useResourceList("sizes", { ...list.refine });
  const open = useOpenModal();
  const total = result.total ?? 0;
  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => open("addSize")}>
      Add Size
    </Button>
  );

  const columns: DataColumn<Size>[] = [
    { key: "name", title: "Name", dataIndex: "name", sortField: "name" },
    { key: "value", title: "Value (inch)", dataIndex: "value", sortField: "value" },
    {
      key: "actions",
      title: "",
      align: "right",
      render: (_, s) => (
        <Space>
          <Tooltip title="Edit"><Button size="small" icon={<EditOutlined />} onClick={() => open("editSize", s._id)} aria-label={`Edit ${s.name}`} /></Tooltip>
          <Tooltip title="Delete"><Button size="small" danger icon={<DeleteOutlined />} onClick={() => open("deleteSize", s._id)} aria-label={`Delete ${s.name}`} /></Tooltip>
        </Space>
      ),
    },
  ];

  // The empty state is for a user with no sizes at all, not for a search without hits.
  const empty = !query.isLoading && !query.isError && total === 0 && list.state.page === 1 && !list.state.search;

  return (
    <PageShell title="Sizes" extra={empty ? undefined : addButton}>
      <Card>
        {empty ? (
          <Empty description={NO_SIZES}>{addButton}</Empty>
        ) : (
          <>
            <Flex style={{ marginBottom: 16 }}>
              <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Search sizes" />
            </Flex>
            <DataTable<Size> columns={columns} list={list} dataSource={result.data} total={total} loading={query.isLoading} />
          </>
        )}
      </Card>
      <AddSizeModal />
      <EditSizeModal />
      <DeleteSizeModal />
    </PageShell>
  );
}
