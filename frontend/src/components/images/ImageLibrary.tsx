import { useState } from "react";
import { Alert, Button, Checkbox, Empty, Flex, Select, Spin, Tag, Tooltip, Typography } from "antd";
import { ClearOutlined, DeleteOutlined, FolderOutlined, SortAscendingOutlined, SortDescendingOutlined, UploadOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { useNavigate } from "react-router";
import { Pager } from "../table/Pager";
import { SearchBox } from "../table/SearchBox";
import { PAGE_SIZES } from "../../lib/pagination";
import { useLiveEvent } from "../../providers/live";
import { toast } from "../../lib/toast";
import { addPrintItem } from "./api";
import { useCategories } from "./CategorySelect";
import { ChangeCategoryModal, DeleteImagesModal, EditImageModal } from "./ImageModals";
import { ImageSidePanel } from "./ImageSidePanel";
import { SORT_OPTIONS, isBrokenImage, tileSource, type ImageSortField } from "./library";
import { useLibraryUrl, useSelection } from "./useLibraryState";
import type { LibraryImage } from "../../api/types";
import { UploadImageModal } from "./UploadImageModal";
import "./images.css";
import { useResourceList } from "../../hooks/useResource";

export const NO_IMAGES = "No images found.";
export const BROKEN_TILE = "Error happened while uploading image. Click to delete";
export const IMAGE_ADDED = "Image added to print";
/** Only while an image on the page is still processing, in case its live event was missed. */
export const FALLBACK_POLL_MS = 15_000;

export interface ImageLibraryProps {
  /**
   * Adding to a print: the side panel shows Quantity, Size and 'Add to print'.
   * Default: whenever the URL carries `addPrint`.
   */
  printMode?: boolean;
  /**
   * Called by 'Add to print'. Default (Images page with `addPrint=<printId>`):
   * POST /api/print/{printId}/printItem and the toast 'Image added to print'.
   * Return a promise to keep the button busy; reject to keep the form as it is.
   */
  onAddToPrint?: (image: LibraryImage, sizeId: string, quantity: number) => void | Promise<unknown>;
  /**
   * 'Select this image' (outside print mode). Default: with a `callback` parameter,
   * go there with `imageId=<id>` added; otherwise toggle the image's checkbox.
   */
  onSelectImage?: (image: LibraryImage) => void;
}

/**
 * The image library (docs/images.md): everything lives in the
 * URL — sortBy, sort, search, imageCategory, page, limit and the modals editImage,
 * deleteImage, editCategory, addImage — so it can be mounted on the Images page or
 * inside a print screen's picker.
 */
export function ImageLibrary({ printMode: printModeProp, onAddToPrint, onSelectImage }: ImageLibraryProps) {
  const url = useLibraryUrl(printModeProp);
  const { list, sortBy, sort, printMode } = url;
  const navigate = useNavigate();
  const selection = useSelection();
  const [activeId, setActiveId] = useState<string | null>(null);

  const { result, query: listQuery } = useResourceList("images", { ...list.refine,
    // Safety net only: a missed socket event (reconnecting) still ends "Processing".
    queryOptions: { refetchInterval: (q) => (q.state.data?.data.some((i) => i.status === "processing") ? FALLBACK_POLL_MS : false) },
  });
  // New uploads get their dimensions and preview from a queue job, which says so on image-{userId}.
  const invalidate = useInvalidate();
  useLiveEvent("image", () => void invalidate({ resource: "images", invalidates: ["list", "detail"] }));
  // 'All categories' counts the whole library: one unfiltered call.
  const { result: all } = useResourceList("images", { pagination: { currentPage: 1, pageSize: 1, mode: "server" } });
  const { categories } = useCategories();

  const images = result.data ?? [];
  const total = result.total ?? 0;
  const active = images.find((i) => i._id === activeId) ?? null;
  const open = url.openModal;
  const { toggle } = selection;
  const clearSelection = selection.clear;

  const clickTile = (image: LibraryImage) => {
    if (isBrokenImage(image)) {
      toggle(image._id, true);
      open("deleteImage", image._id);
      return;
    }
    setActiveId(image._id);
    if (!printMode) open("editImage", image._id);
  };

  const selectImage =
    onSelectImage ??
    ((image: LibraryImage) => {
      const callback = url.params.get("callback");
      if (callback?.startsWith("/") && !callback.startsWith("//")) {
        const target = new URL(callback, window.location.origin);
        target.searchParams.set("imageId", image._id);
        navigate(target.pathname + target.search);
      } else toggle(image._id);
    });

  const printId = url.printId;
  const addToPrint =
    onAddToPrint ??
    (async (image: LibraryImage, sizeId: string, quantity: number) => {
      if (!printId || printId === "true") {
        toast.error("Open the image library from a print to add images to it");
        return;
      }
      await addPrintItem(printId, { imageId: image._id, sizeId, quantity });
      toast.success(IMAGE_ADDED);
    });

  const categoryFilter = list.state.filters.imageCategory;
  const chip = (key: string, label: string, count: number | undefined, checked: boolean, onClick: () => void) => (
    <Tag.CheckableTag key={key} checked={checked} onChange={onClick} data-testid={`chip-${key}`}>
      {label}
      {count !== undefined && <span style={{ opacity: 0.85 }}> ({count})</span>}
    </Tag.CheckableTag>
  );

  const uploadButton = (
    <Button type="primary" icon={<UploadOutlined />} onClick={() => open("addImage")}>
      Upload Image
    </Button>
  );

  return (
    <>
      <Flex className="gs-library__toolbar" gap={8} wrap align="center" justify="space-between">
        <Flex gap={8} wrap align="center">
          <div style={{ width: 280, maxWidth: "100%" }}>
            <SearchBox value={list.state.search ?? ""} onSearch={list.setSearch} placeholder="Search images" />
          </div>
          <Select
            aria-label="Sort by"
            value={sortBy}
            style={{ width: 150 }}
            options={SORT_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
            onChange={(v: ImageSortField) => list.setSort(v, sort)}
          />
          <Tooltip title={sort === "asc" ? "Ascending" : "Descending"}>
            <Button
              aria-label={sort === "asc" ? "Sort ascending" : "Sort descending"}
              icon={sort === "asc" ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
              onClick={() => list.setSort(sortBy, sort === "asc" ? "desc" : "asc")}
            />
          </Tooltip>
        </Flex>
        {uploadButton}
      </Flex>

      <div className="gs-library__chips" role="group" aria-label="Categories">
        {chip("all", "All categories", all.total, !categoryFilter, () => list.setFilter("imageCategory", undefined))}
        {categories.map((c) => chip(c._id, c.name, c.imageCount, categoryFilter === c._id, () => list.setFilter("imageCategory", c._id)))}
      </div>

      <div className="gs-library">
        <div>
          {selection.size > 0 && (
            <Flex className="gs-selection-bar" align="center" justify="space-between" wrap gap={8} data-testid="selection-bar">
              <Typography.Text strong>
                {selection.size} {selection.size === 1 ? "image" : "images"} selected
              </Typography.Text>
              <Flex gap={8} wrap>
                <Button danger icon={<DeleteOutlined />} onClick={() => open("deleteImage")}>Delete</Button>
                <Button icon={<FolderOutlined />} onClick={() => open("editCategory")}>Change Category</Button>
                <Button icon={<ClearOutlined />} onClick={clearSelection}>Clear</Button>
              </Flex>
            </Flex>
          )}

          {listQuery.isError ? (
            <Alert type="error" showIcon message="The images could not be loaded." action={<Button size="small" onClick={() => listQuery.refetch()}>Retry</Button>} />
          ) : listQuery.isLoading ? (
            <Flex justify="center" style={{ padding: 48 }}><Spin /></Flex>
          ) : images.length === 0 ? (
            <Empty description={NO_IMAGES} style={{ padding: "32px 0" }}>{uploadButton}</Empty>
          ) : (
            <div className="gs-image-grid" data-testid="image-grid">
              {images.map((image) => (
                <ImageTile
                  key={image._id}
                  image={image}
                  active={image._id === activeId}
                  checked={selection.has(image._id)}
                  onCheck={(on) => toggle(image._id, on)}
                  onClick={() => clickTile(image)}
                />
              ))}
            </div>
          )}

          <Pager
            page={list.state.page}
            limit={list.state.limit}
            total={total}
            sizes={PAGE_SIZES}
            clearTo={25}
            onPage={list.setPage}
            onLimit={list.setLimit}
          />
        </div>

        <ImageSidePanel
          image={active}
          printMode={printMode}
          selected={!!active && selection.has(active._id)}
          onEdit={(image) => open("editImage", image._id)}
          onSelect={selectImage}
          onAddToPrint={addToPrint}
        />
      </div>

      <UploadImageModal />
      <EditImageModal image={images.find((i) => i._id === url.params.get("editImage"))} />
      <DeleteImagesModal selected={selection.ids} onDeleted={clearSelection} />
      <ChangeCategoryModal selected={selection.ids} onChanged={clearSelection} />
    </>
  );
}

function ImageTile({ image, active, checked, onCheck, onClick }: { image: LibraryImage; active: boolean; checked: boolean; onCheck: (on: boolean) => void; onClick: () => void }) {
  const broken = isBrokenImage(image);
  const src = tileSource(image);
  const classes = ["gs-tile", active && "gs-tile--active", checked && "gs-tile--selected", broken && "gs-tile--broken"].filter(Boolean).join(" ");
  // The tile opens the image and its checkbox selects it: two controls side by side, never
  // one inside the other (a screen reader cannot reach a control nested in a button).
  return (
    <div className={classes} data-testid="image-tile">
      <span className="gs-tile__check">
        <Checkbox checked={checked} onChange={(e) => onCheck(e.target.checked)} aria-label={`Select ${image.name}`} />
      </span>
      {image.status === "processing" && <Tag className="gs-tile__badge" color="processing">Processing</Tag>}
      <button type="button" className="gs-tile__open" onClick={onClick}>
        <span className="gs-tile__img">
          {broken ? BROKEN_TILE : src ? <img src={src} alt="" loading="lazy" /> : null}
        </span>
        <span className="gs-tile__name" title={image.name}>{image.name}</span>
      </button>
    </div>
  );
}
