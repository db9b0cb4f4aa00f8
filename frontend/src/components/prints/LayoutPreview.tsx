import { useEffect, useRef, useState } from "react";
import { Alert, Card, Empty, Flex, Spin, Statistic, Tag, Tooltip, Typography } from "antd";
import { WarningOutlined } from "@ant-design/icons";
import { placementTransform, shapeSavingText, sheetPixels, sheetScale, trimViewBox } from "./layoutGeometry";
import { lowResolutionImages, layoutProblems } from "./rules";
import type { DesignImage, Layout, LayoutPlacement, LayoutSheet } from "../../api/types";

const MAX_SHEET_HEIGHT_PX = 560;
const copies = (n: number) => `${n} ${n === 1 ? "copy" : "copies"}`;

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/** The space an order label is printed in (the text itself is in the print files). */
function LabelBox({ p }: { p: LayoutPlacement }) {
  if (!p.label) return null;
  const { x, y, width, height } = p.label;
  return <rect data-testid="layout-label" x={x} y={y} width={width} height={height} rx={Math.min(width, height) * 0.2} fill="#fff" stroke="rgba(15,23,42,0.55)" strokeWidth={0.02} />;
}

function Design({ p, image, low }: { p: LayoutPlacement; image?: DesignImage; low: boolean }) {
  const t = placementTransform(p);
  const href = image?.previewFile?.path ?? image?.file?.path;
  const crop = trimViewBox(image);
  return (
    <g transform={t.transform} data-testid="layout-design" data-rotated={p.rotated || undefined} data-rotation={p.rotation}>
      <title>{`${image?.name ?? "Design"}${p.rotation ? ` (turned ${p.rotation}°)` : ""}`}</title>
      <rect width={t.width} height={t.height} fill="rgba(79,70,229,0.06)" />
      {href &&
        (crop ? (
          <svg width={t.width} height={t.height} viewBox={crop.viewBox} preserveAspectRatio="none">
            <image href={href} width={crop.imageWidth} height={crop.imageHeight} preserveAspectRatio="none" />
          </svg>
        ) : (
          <image href={href} width={t.width} height={t.height} preserveAspectRatio="xMidYMid meet" />
        ))}
      <rect width={t.width} height={t.height} fill="none" stroke={low ? "#dc2626" : "rgba(79,70,229,0.45)"} strokeWidth={low ? 0.08 : 0.03} />
    </g>
  );
}

/** One gang sheet, in inches, scaled to the space available. */
export function SheetDrawing({ sheet, index, images, lowDpi, maxWidthPx }: { sheet: LayoutSheet; index: number; images: Map<string, DesignImage>; lowDpi: Set<string>; maxWidthPx: number }) {
  const ppi = sheetScale(sheet, maxWidthPx, MAX_SHEET_HEIGHT_PX);
  const px = sheetPixels(sheet, ppi);
  return (
    <figure className="gs-sheet" style={{ margin: 0 }} data-testid="layout-sheet">
      <svg
        width={px.width}
        height={px.height}
        viewBox={`0 0 ${sheet.width} ${Math.max(sheet.length, 0.01)}`}
        role="img"
        aria-label={`Sheet ${index + 1}: ${sheet.width} by ${sheet.length.toFixed(2)} inches`}
        style={{ display: "block", background: "repeating-conic-gradient(#f1f5f9 0 25%, #fff 0 50%) 0 0 / 12px 12px", border: "1px solid #cbd5e1" }}
      >
        {sheet.placements.map((p, i) => (
          <Design key={i} p={p} image={images.get(p.imageId)} low={lowDpi.has(p.imageId)} />
        ))}
        {sheet.placements.map((p, i) => (
          <LabelBox key={`l${i}`} p={p} />
        ))}
      </svg>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Sheet {index + 1} · {sheet.width} × {sheet.length.toFixed(2)} in · {copies(sheet.placements.length)}
      </Typography.Text>
    </figure>
  );
}

export interface LayoutPreviewProps {
  layout: Layout | undefined;
  images: DesignImage[];
  loading?: boolean;
  error?: Error | null;
  /** Shown when there is nothing to lay out yet. */
  emptyText?: string;
}

/** The live layout preview: every sheet with its designs, length, density, cost, warnings. */
export function LayoutPreview({ layout, images, loading, error, emptyText = "Add items to see the layout." }: LayoutPreviewProps) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const byId = new Map(images.map((i) => [i._id, i]));
  const lowResolution = lowResolutionImages(layout);
  const lowDpi = new Set(lowResolution.map((w) => w.imageId));
  const problems = layoutProblems(layout);
  const totalLength = layout?.sheets.reduce((n, s) => n + s.length, 0) ?? 0;
  // One sheet uses the card's width (up to 720 px); several sit side by side.
  const sheets = layout?.sheets.length || 1;
  const sheetWidth = Math.max(120, sheets === 1 ? Math.min(720, width - 8) : width >= 520 ? Math.min(360, width / 2 - 16) : width - 8);

  return (
    <Card
      title="Layout preview"
      extra={
        <Flex gap={8} align="center">
          {layout?.rendered && (
            <Tooltip title="The layout the sheet files were rendered with">
              <Tag color="green" data-testid="layout-rendered">As rendered</Tag>
            </Tooltip>
          )}
          {loading ? <Spin size="small" /> : null}
        </Flex>
      }
      data-testid="layout-preview"
    >
      <div ref={ref}>
        {error && <Alert type="error" showIcon message={error.message || "The layout could not be made"} style={{ marginBottom: 12 }} />}
        {layout && problems.length > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="layout-problems"
            style={{ marginBottom: 12 }}
            message="Cannot be processed"
            description={
              <Flex vertical gap={2}>
                {[...new Set(problems.map((p) => p.message))].map((m) => (
                  <span key={m}>{m}</span>
                ))}
                <Typography.Text type="secondary">These items are left out of the layout and the credit cost. Change their size or the sheet settings.</Typography.Text>
              </Flex>
            }
          />
        )}
        {!layout || layout.sheets.length === 0 ? (
          loading ? <Flex justify="center" style={{ padding: 32 }}><Spin /></Flex> : problems.length ? null : <Empty description={emptyText} />
        ) : (
          <>
            <Flex gap={24} wrap style={{ marginBottom: 16 }}>
              <Statistic title="Sheets" value={layout.sheets.length} />
              <Statistic title="Length" value={totalLength.toFixed(2)} suffix="in" data-testid="layout-length" />
              <Statistic title="Density" value={Math.round(layout.density * 1000) / 10} suffix="%" data-testid="layout-density" />
              <Statistic title="Credit cost" value={layout.creditCost} data-testid="layout-cost" />
            </Flex>
            {layout.shapeSaving && (
              <Alert
                type={layout.shapeSaving.savedLength > 0 ? "success" : "info"}
                showIcon
                style={{ marginBottom: 16 }}
                data-testid="layout-saving"
                message={shapeSavingText(layout.shapeSaving)}
                description={`Rectangles would need ${layout.shapeSaving.boxLength.toFixed(2)} in of film.`}
              />
            )}
            {lowResolution.length > 0 && (
              <Alert
                type="warning"
                showIcon
                icon={<WarningOutlined />}
                style={{ marginBottom: 16 }}
                message="Low resolution"
                description={
                  <Flex vertical gap={2}>
                    {lowResolution.map((w) => (
                      <span key={w.imageId}>
                        {byId.get(w.imageId)?.name ?? "A design"} prints at {Math.round(w.effectiveDpi)} DPI; below 150 DPI it may look soft or pixelated.
                      </span>
                    ))}
                  </Flex>
                }
              />
            )}
            <Flex gap={16} wrap align="flex-start" style={{ opacity: loading ? 0.6 : 1, transition: "opacity .2s" }}>
              {layout.sheets.map((s, i) => (
                <SheetDrawing key={i} sheet={s} index={i} images={byId} lowDpi={lowDpi} maxWidthPx={sheetWidth} />
              ))}
            </Flex>
            <Tooltip title="Copies placed over all sheets">
              <Tag style={{ marginTop: 12 }}>{copies(layout.sheets.reduce((n, s) => n + s.placements.length, 0))}</Tag>
            </Tooltip>
          </>
        )}
      </div>
    </Card>
  );
}
