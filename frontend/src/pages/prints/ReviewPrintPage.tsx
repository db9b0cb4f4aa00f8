import { useState } from "react";
import { Alert, Card, Flex, Typography } from "antd";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { api, call } from "../../api/client";
import type { ApiError } from "../../api/errors";
import { PageShell } from "../../components/common/PageShell";
import { useRefreshIntegrations, type ReviewItem } from "../../components/integrations/api";
import { StatusTag, TITLE_MAX, Truncated } from "../../components/orders/orderBits";
import { CreatePrintButtons } from "../../components/prints/CreatePrintButtons";
import { ProcessingOverlay } from "../../components/prints/PrintModals";
import { MSG } from "../../components/prints/rules";
import { useSearchParams } from "../../lib/searchParams";
import { toast } from "../../lib/toast";
import { money } from "../../lib/money";
import { useApiQuery } from "../../api/query";

/** Waits (up to two minutes) until every image of the print is ready; false if one failed or it took too long. */
async function designsReady(printId: string): Promise<boolean> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const { data } = await call(api.GET("/api/print/{id}", { params: { path: { id: printId } } }));
    const statuses = data.printItems.map((i) => i.image?.status);
    if (statuses.some((s) => s === "error")) return false;
    if (statuses.every((s) => s === "ready")) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}

const SOURCE: Record<string, string> = { designUrl: "Design file from the order", sku: "Image matching the SKU", imported: "Design file (already imported)" };

/**
 * Review print: the selected order items (?orderItems=id,id) before they become a
 * print. Items without an image or size are listed with what is missing; a draft can still
 * be created and completed on the print, processing needs every item complete.
 */
export function ReviewPrintPage() {
  const navigate = useNavigate();
  const refreshOrders = useRefreshIntegrations();
  const [params] = useSearchParams();
  const ids = (params.get("orderItems") ?? "").split(",").filter(Boolean);
  const [processing, setProcessing] = useState(false);
  // A read that is a POST (the ids may be many): keyed by its path and the ids like any read.
  const review = useApiQuery(["/api/orders/review", { ids }], () => api.POST("/api/orders/review", { body: { orderItems: ids } }), {
    enabled: ids.length > 0,
    select: (r) => r.data,
  });
  const rows = review.data ?? [];
  const create = useMutation({
    mutationFn: async (allowReprint: boolean) => call(api.POST("/api/orders/print", { body: { orderItems: ids, allowReprint } }), { silent: true }),
  });
  const unresolved = rows.filter((r) => r.problems.length > 0);
  const inPrint = rows.filter((r) => r.printIds.length > 0);
  const totalQuantity = rows.reduce((a, r) => a + r.quantity, 0);

  const submit = (mode: "draft" | "process") =>
    create.mutate(inPrint.length > 0, {
      onError: (e) => toast.error((e as ApiError).message),
      onSuccess: async (res) => {
        toast.success(MSG.created);
        void refreshOrders();
        if (res.unresolved.length) toast.info(`${res.unresolved.length} item(s) still need an image or a size: complete them on the print.`);
        if (mode === "draft" || res.unresolved.length) return navigate(`/prints/${res._id}`);
        setProcessing(true);
        try {
          // Designs downloaded from the orders are checked and previewed by a job first.
          if (!(await designsReady(res._id))) return navigate(`/prints/${res._id}`);
          await call(api.POST("/api/print/{id}/process", { params: { path: { id: res._id } }, body: {} }));
          navigate(`/prints/${res._id}`, { state: { awaiting: true } });
        } catch {
          navigate(`/prints/${res._id}`);
        } finally {
          setProcessing(false);
        }
      },
    });

  const columns = [
    {
      key: "title",
      title: "Title",
      render: (_: unknown, r: ReviewItem) => (
        <Flex vertical>
          <Truncated text={r.title} max={TITLE_MAX} />
          {r.imageSource && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{SOURCE[r.imageSource]}{r.imageName ? `: ${r.imageName}` : ""}</Typography.Text>}
          {r.problems.map((p) => (
            <Typography.Text key={p} type="danger" style={{ fontSize: 12 }} data-testid="item-problem">{p}</Typography.Text>
          ))}
          {r.printIds.length > 0 && <Typography.Text type="warning" style={{ fontSize: 12 }}>Already in a print; it will be printed again.</Typography.Text>}
        </Flex>
      ),
    },
    { key: "orderId", title: "Order ID", dataIndex: "orderId" },
    { key: "reference", title: "Reference", dataIndex: "reference" },
    { key: "sku", title: "SKU", render: (_: unknown, r: ReviewItem) => r.sku ?? "—" },
    { key: "size", title: "Size", render: (_: unknown, r: ReviewItem) => r.sizeName ?? r.size ?? "—" },
    { key: "quantity", title: "Quantity", dataIndex: "quantity" },
    { key: "price", title: "Price", render: (_: unknown, r: ReviewItem) => money(r.price, r.currency) },
    { key: "status", title: "Status", render: (_: unknown, r: ReviewItem) => <StatusTag status={r.status} /> },
  ];

  return (
    <PageShell
      title="Review Print"
      crumbs={[{ title: "Prints", to: "/prints" }, { title: "Review Print" }]}
      extra={
        <CreatePrintButtons
          count={rows.length}
          totalQuantity={totalQuantity}
          missing={false}
          pending={create.isPending || processing}
          blocked={unresolved.length ? MSG.imageOrSizeMissing : null}
          onCreate={submit}
        />
      }
    >
      <Card>
        {unresolved.length > 0 && (
          <Alert style={{ marginBottom: 16 }} type="warning" showIcon message={MSG.imageOrSizeMissing}
            description={`${unresolved.length} of ${rows.length} items have no matching image or size. Create the draft and complete them on the print.`} />
        )}
        <ResponsiveTable<ReviewItem> rowKey="_id" columns={columns} dataSource={rows} loading={review.isLoading} pagination={false} scroll={{ x: "max-content" }} locale={{ emptyText: "No data" }} />
      </Card>
      <ProcessingOverlay open={processing} />
    </PageShell>
  );
}
