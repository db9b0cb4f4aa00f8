import { Button, Card, DatePicker, Empty, Flex, Select } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import dayjs from "dayjs";
import { useNavigate } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { PageShell } from "../../components/common/PageShell";
import { usePrintActions } from "../../components/prints/api";
import { PrintStatusSelect } from "../../components/prints/PrintBits";
import { DeletePrintModal } from "../../components/prints/PrintModals";
import { printColumns } from "../../components/prints/printColumns";
import { dateRangeFilters, MSG } from "../../components/prints/rules";
import { PRINT_TYPES, type Print } from "../../api/types";
import { useLiveEvent } from "../../providers/live";
import { DataTable } from "../../components/table/DataTable";
import { openModalParams, useQueryModal } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";
import { toast } from "../../lib/toast";
import { useResourceList } from "../../hooks/useResource";

/** The prints list: Status, Date range and Type filters in the URL; File … Delete columns. */
export function PrintsPage() {
  const list = useUrlList({ filters: ["status", "dateType", "startDate", "endDate", "type"] });
  const navigate = useNavigate();
  const [, setParams] = useSearchParams();
  const { result, query } = useResourceList("print", { ...list.refine });
  const rows = result.data ?? [];
  // A print that finishes (or fails) while the list is open changes its row.
  const invalidate = useInvalidate();
  useLiveEvent("print", (e) => {
    void invalidate({ resource: "print", invalidates: ["list"] });
    if (e.status === "Error") toast.error(e.message || "An error occurred");
  });
  const { startDate, endDate, dateType, status, type } = list.state.filters;

  const deleteModal = useQueryModal("deletePrint");
  const target = rows.find((p) => p._id === deleteModal.value);
  const actions = usePrintActions(deleteModal.value ?? undefined);
  const deleted = () => {
    toast.success(MSG.deleted);
    deleteModal.close();
  };

  const columns = printColumns({
    onProcess: (p, quantity) => navigate(`/prints/${p._id}?printWarningModal=${quantity}`),
    onDelete: (p) => setParams((prev) => openModalParams(prev, "deletePrint", p._id)),
  });

  return (
    <PageShell
      title="Prints"
      extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => navigate("/prints/manual-create")}>New Print</Button>}
    >
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <PrintStatusSelect value={status} onChange={(v) => list.setFilter("status", v)} />
          <Select
            aria-label="Date type"
            style={{ width: 120 }}
            value={dateType ?? "createdAt"}
            onChange={(v: string) => list.setFilter("dateType", v === "createdAt" ? undefined : v)}
            options={[{ value: "createdAt", label: "Created" }, { value: "printedAt", label: "Printed" }]}
          />
          <DatePicker.RangePicker
            aria-label="Date range"
            value={startDate && endDate ? [dayjs(startDate), dayjs(endDate)] : null}
            onChange={(range) => list.setFilters(dateRangeFilters(range))}
          />
          <Select
            allowClear
            placeholder="Type"
            aria-label="Type"
            style={{ width: 140 }}
            value={type}
            onChange={(v?: string) => list.setFilter("type", v)}
            options={PRINT_TYPES.map((t) => ({ value: t, label: t }))}
          />
        </Flex>
        <DataTable<Print>
          columns={columns}
          list={list}
          dataSource={rows}
          total={result.total ?? 0}
          loading={query.isLoading}
          locale={{
            emptyText: (
              <Empty description={MSG.noPrints} style={{ padding: 24 }}>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate("/prints/manual-create")}>Create New Print</Button>
              </Empty>
            ),
          }}
        />
      </Card>
      <DeletePrintModal
        status={target?.status}
        pending={actions.removeFiles.isPending || actions.forceDelete.isPending}
        onDeleteFiles={() => actions.removeFiles.mutate(undefined, { onSuccess: deleted })}
        onForceDelete={() => actions.forceDelete.mutate(undefined, { onSuccess: deleted })}
      />
    </PageShell>
  );
}
