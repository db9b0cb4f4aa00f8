import { useState } from "react";
import { Button, Card, Col, Flex, Popconfirm, Row, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useNavigate } from "react-router";
import { ResponsiveTable } from "../../components/table/ResponsiveTable";
import { useSearchParams } from "../../lib/searchParams";
import { api, call } from "../../api/client";
import { PageShell } from "../../components/common/PageShell";
import { IMAGE_ADDED } from "../../components/images/ImageLibrary";
import { AddItemModal } from "../../components/prints/AddItemModal";
import { useAnyMutationPending, useCreatePrint, useLayoutPreview, useSheetSettings } from "../../components/prints/api";
import { CreatePrintButtons } from "../../components/prints/CreatePrintButtons";
import { Thumb } from "../../components/prints/ItemPickers";
import { LayoutPreview } from "../../components/prints/LayoutPreview";
import { ProcessingOverlay } from "../../components/prints/PrintModals";
import { QuantityStepper } from "../../components/prints/QuantityStepper";
import { draftSettings, useManualDraft } from "../../components/prints/manualDraft";
import { MSG, addDraftItem, draftItemId, problemsByItem, processBlockedReason, totalQuantity } from "../../components/prints/rules";
import { SheetSettingsForm } from "../../components/prints/SheetSettingsForm";
import type { SheetSettings } from "../../api/types";
import type { DraftItem } from "../../components/prints/manualDraft";
import { SizeSelect, useAllSizes } from "../../components/sizes/SizeSelect";
import { openModalParams } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { useProfile } from "../../hooks/useProfile";

/** Manual print create, with the live layout of the lines chosen so far (docs/frontend.md "Manual print draft"). */
export function ManualCreatePrintPage() {
  const navigate = useNavigate();
  const [, setParams] = useSearchParams();
  // The lines and sheet settings are kept per user until created or cleared (manualDraft.ts).
  const { profile } = useProfile();
  const { draft, setDraft, loaded } = useManualDraft(profile?._id);
  const items = draft.items;
  const setItems = (next: DraftItem[] | ((all: DraftItem[]) => DraftItem[])) =>
    setDraft((d) => ({ ...d, items: typeof next === "function" ? next(d.items) : next }));
  const { sizes } = useAllSizes();
  const create = useCreatePrint();
  const busy = useAnyMutationPending();
  const [processing, setProcessing] = useState(false);

  // The saved sheet settings until the seller changes them here (then the draft keeps them).
  const saved = useSheetSettings();
  const settings = draftSettings(draft, saved.data);
  const setSettings = (next: SheetSettings) => setDraft((d) => ({ ...d, settings: next }));

  const lines = items.map((i) => ({ imageId: i.image._id, sizeId: i.size._id, quantity: i.quantity }));
  const preview = useLayoutPreview({ items: lines, settings, enabled: loaded });
  const layout = items.length ? preview.data : undefined;
  const blocked = processBlockedReason(layout);
  // The draft preview names the n-th line draft-<n> (lines are already merged like the server merges them).
  const problems = problemsByItem(layout);
  const total = totalQuantity(items);
  const patch = (key: string, change: Partial<DraftItem>) =>
    setItems((all) => {
      const updated = all.map((i) => (i.key === key ? { ...i, ...change } : i));
      // Changing a line's size onto another line's image+size merges the two.
      return updated.reduce<DraftItem[]>((acc, i) => addDraftItem(acc, { image: i.image, size: i.size, quantity: i.quantity }), []);
    });

  const submit = (mode: "draft" | "process") =>
    create.mutate(lines, {
      onSuccess: async (print) => {
        toast.success(MSG.created);
        setDraft({ items: [] });
        if (mode === "draft") return navigate(`/prints/${print._id}`);
        setProcessing(true);
        try {
          await call(api.POST("/api/print/{id}/proccess", { params: { path: { id: print._id } }, body: { settings } }));
          navigate(`/prints/${print._id}`, { state: { awaiting: true } });
        } catch {
          // The error was toasted (e.g. not enough credits); the draft is kept.
          navigate(`/prints/${print._id}`);
        } finally {
          setProcessing(false);
        }
      },
    });

  const columns = [
    { key: "image", title: "Image", render: (_: unknown, i: DraftItem) => <Thumb image={i.image} /> },
    {
      key: "name",
      title: "Name",
      render: (_: unknown, i: DraftItem, index: number) => (
        <Flex vertical>
          <Typography.Text>{i.image.name}</Typography.Text>
          {problems.get(draftItemId(index))?.map((m) => (
            <Typography.Text key={m} type="danger" style={{ fontSize: 12, maxWidth: 320 }} data-testid="item-problem">{m}</Typography.Text>
          ))}
        </Flex>
      ),
    },
    {
      key: "size",
      title: "Size",
      render: (_: unknown, i: DraftItem) => (
        <SizeSelect value={i.size._id} style={{ minWidth: 200 }} aria-label="Size" onChange={(_id, size) => patch(i.key, { size })} />
      ),
    },
    { key: "quantity", title: "Quantity", render: (_: unknown, i: DraftItem) => <QuantityStepper value={i.quantity} onCommit={(quantity) => patch(i.key, { quantity })} /> },
    {
      key: "remove",
      title: "",
      render: (_: unknown, i: DraftItem) => (
        <Popconfirm title="Remove this item?" okText="Remove" onConfirm={() => setItems((all) => all.filter((x) => x.key !== i.key))}>
          <Button size="small" danger icon={<DeleteOutlined />}>Remove</Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageShell
      title="Manual Print"
      crumbs={[{ title: "Prints", to: "/prints" }, { title: "Manual Print" }]}
      extra={
        <CreatePrintButtons
          count={items.length}
          totalQuantity={total}
          missing={items.some((i) => !i.image || !i.size)}
          pending={busy || processing}
          blocked={blocked}
          onCreate={submit}
        />
      }
    >
      <Row gutter={[24, 24]}>
        <Col xs={24} xxl={14}>
          <Card
            title="Selected items"
            extra={
              <Flex gap={12} align="center">
                <Typography.Text type="secondary">{total} copies</Typography.Text>
                {items.length > 0 && (
                  <Popconfirm title="Remove every line of this draft?" okText="Clear" onConfirm={() => setDraft({ items: [] })}>
                    <Button>Clear</Button>
                  </Popconfirm>
                )}
                <Button icon={<PlusOutlined />} onClick={() => setParams((p) => openModalParams(p, "addPrint"))}>Add Item</Button>
              </Flex>
            }
          >
            <ResponsiveTable<DraftItem> rowKey="key" columns={columns} dataSource={items} pagination={false} scroll={{ x: "max-content" }} locale={{ emptyText: "No data" }} />
          </Card>
        </Col>
        <Col xs={24} xxl={10}>
          <Flex vertical gap={24}>
            <LayoutPreview
              layout={layout}
              images={items.map((i) => i.image)}
              // Until the first layout arrives (settings, debounce, request) it is loading, not empty.
              loading={preview.isFetching || (items.length > 0 && preview.isPending)}
              error={items.length ? preview.error : null}
            />
            {settings && (
              <Card title="Sheet settings" size="small">
                <SheetSettingsForm value={settings} onChange={setSettings} compact />
              </Card>
            )}
          </Flex>
        </Col>
      </Row>
      <AddItemModal
        onAdd={async (image, sizeId, quantity) => {
          const size = sizes.find((s) => s._id === sizeId);
          if (!size) return toast.error(MSG.imageOrSizeMissing);
          setItems((all) => addDraftItem(all, { image, size, quantity }));
          toast.success(IMAGE_ADDED);
        }}
      />
      <ProcessingOverlay open={processing} />
    </PageShell>
  );
}
