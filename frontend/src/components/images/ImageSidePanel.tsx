import { useEffect, useState } from "react";
import { Alert, Button, Card, Descriptions, Empty, Flex, InputNumber, Rate, Typography } from "antd";
import { EditOutlined, PlusOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { useLocation, useNavigate } from "react-router";
import { SizeSelect, useAllSizes } from "../sizes/SizeSelect";
import { addSizeHref } from "../sizes/sizeForm";
import { canAddToPrint, effectiveDpi, isBrokenImage, lowResolutionWarning, tileSource } from "./library";
import type { LibraryImage } from "../../api/types";

const when = (iso: string) => dayjs(iso).format("MMM D, YYYY HH:mm");

export interface ImageSidePanelProps {
  image: LibraryImage | null;
  printMode: boolean;
  onEdit: (image: LibraryImage) => void;
  /** Outside print creation: 'Select this image'. */
  onSelect: (image: LibraryImage) => void;
  selected: boolean;
  onAddToPrint: (image: LibraryImage, sizeId: string, quantity: number) => void | Promise<unknown>;
}

/** Details of the image last clicked; while adding to a print, quantity + size + Add. */
export function ImageSidePanel({ image, printMode, onEdit, onSelect, selected, onAddToPrint }: ImageSidePanelProps) {
  if (!image) {
    return (
      <Card className="gs-image-panel" size="small">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={printMode ? "Click an image to add it to the print." : "Click an image to see its details."} />
      </Card>
    );
  }
  const src = tileSource(image);
  return (
    <Card className="gs-image-panel" size="small" data-testid="image-panel">
      {src && !isBrokenImage(image) && (
        <div className="gs-image-panel__preview">
          <img src={src} alt={image.name} />
        </div>
      )}
      <Flex justify="space-between" align="start" gap={8}>
        <Typography.Title level={5} style={{ margin: "8px 0" }} ellipsis={{ tooltip: image.name }}>
          {image.name}
        </Typography.Title>
        <Button size="small" type="text" icon={<EditOutlined />} aria-label="Edit image" onClick={() => onEdit(image)} />
      </Flex>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: "category", label: "Category", children: image.imageCategory?.name ?? "—" },
          { key: "score", label: "Score", children: <Rate disabled allowHalf value={image.score} style={{ fontSize: 14 }} /> },
          ...(image.width && image.height ? [{ key: "px", label: "Pixels", children: `${image.width} × ${image.height}` }] : []),
          { key: "uploaded", label: "Uploaded", children: when(image.createdAt) },
          { key: "updated", label: "Last updated", children: when(image.updatedAt) },
        ]}
      />
      {printMode ? (
        <AddToPrintForm key={image._id} image={image} onAddToPrint={onAddToPrint} />
      ) : (
        <Button block style={{ marginTop: 12 }} type={selected ? "default" : "primary"} onClick={() => onSelect(image)}>
          {selected ? "Deselect this image" : "Select this image"}
        </Button>
      )}
    </Card>
  );
}

function AddToPrintForm({ image, onAddToPrint }: { image: LibraryImage; onAddToPrint: ImageSidePanelProps["onAddToPrint"] }) {
  const { sizes, loading } = useAllSizes();
  const navigate = useNavigate();
  const location = useLocation();
  const [quantity, setQuantity] = useState<number | null>(1);
  const [sizeId, setSizeId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const size = sizes.find((s) => s._id === sizeId) ?? null;
  useEffect(() => {
    if (sizeId && !loading && !size) setSizeId(null);
  }, [sizeId, size, loading]);
  const dpi = effectiveDpi(image, size);
  const warning = lowResolutionWarning(dpi);
  const broken = isBrokenImage(image);

  return (
    <div className="gs-add-to-print">
      <Typography.Text strong>Quantity</Typography.Text>
      <InputNumber
        aria-label="Quantity"
        min={1}
        precision={0}
        value={quantity}
        onChange={(v) => setQuantity(typeof v === "number" ? v : null)}
        style={{ width: "100%", margin: "4px 0 12px" }}
      />
      {!loading && sizes.length === 0 ? (
        <Flex align="center" justify="space-between" gap={8} style={{ marginBottom: 12 }}>
          <Typography.Text>Size: No size found.</Typography.Text>
          <Button size="small" icon={<PlusOutlined />} onClick={() => navigate(addSizeHref(location.pathname + location.search))}>
            Add Size
          </Button>
        </Flex>
      ) : (
        <>
          <Typography.Text strong>Size</Typography.Text>
          <SizeSelect aria-label="Size" value={sizeId} onChange={(id) => setSizeId(id)} style={{ width: "100%", margin: "4px 0 12px" }} />
        </>
      )}
      {dpi !== null &&
        (warning ? (
          <Alert type="warning" showIcon message={warning} style={{ marginBottom: 12 }} />
        ) : (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
            {dpi} DPI at this size
          </Typography.Paragraph>
        ))}
      <Button
        type="primary"
        block
        loading={busy}
        disabled={broken || !canAddToPrint(quantity, sizeId)}
        onClick={async () => {
          setBusy(true);
          try {
            await onAddToPrint(image, sizeId!, quantity!);
          } catch {
            /* the caller has shown the error */
          } finally {
            setBusy(false);
          }
        }}
      >
        Add to print
      </Button>
    </div>
  );
}
