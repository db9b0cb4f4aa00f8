import { useMemo, useState } from "react";
import { Alert, Button, Checkbox, Empty, Flex, Select, Spin, Tag, Tooltip, Typography } from "antd";
import { ClearOutlined, DeleteOutlined, FolderOutlined, SortAscendingOutlined, SortDescendingOutlined, UploadOutlined } from "@ant-design/icons";
import { useList, useOne } from "@refinedev/core";
import { useNavigate } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { Pager } from "../table/Pager";
import { SearchBox } from "../table/SearchBox";
import { PAGE_SIZES } from "../../lib/pagination";
import { openModalParams } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { addPrintItem } from "./api";
import { useCategories } from "./CategorySelect";
import { ChangeCategoryModal, DeleteImagesModal, EditImageModal } from "./ImageModals";
import { ImageSidePanel } from "./ImageSidePanel";
import { SORT_OPTIONS, imageListQuery, isBrokenImage, sortFromParams, tileSource, withSort, type ImageSortField } from "./library";
import type { LibraryImage } from "../../api/types";
import { UploadImageModal } from "./UploadImageModal";
import "./images.css";

export const NO_IMAGES = "No images found.";
export const BROKEN_TILE = "Error happened while uploading image. Click to delete";
export const IMAGE_ADDED = "Image added to print";
const POLL_MS = 2000;

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
 * The image library (spec §2 "Images page and image library"): everything lives in the
 * URL — sortBy, sort, search, imageCategory, page, limit and the modals editImage,
 * deleteImage, editCategory, addImage — so it can be mounted on the Images page or
 * inside a print screen's picker.
 */
export function ImageLibrary({ printMode: printModeProp, onAddToPrint, onSelectImage }: ImageLibraryProps) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const printMode = printModeProp ?? params.has("addPrint");
  const query = imageListQuery(params);
  const { sortBy, sort } = sortFromParams(params);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [activeId, setActiveId] = useState<string | null>(null);

  const { result, query: listQuery } = useList<LibraryImage>({
    resource: "images",
    pagination: { currentPage: Number(query.page), pageSize: Number(query.limit), mode: "server" },
    sorters: [{ field: sortBy, order: sort }],
    filters: [
      ...(query.search ? [{ field: "search", operator: "contains" as const, value: query.search }] : []),
      ...(query.imageCategory ? [{ field: "imageCategory", operator: "eq" as const, value: query.imageCategory }] : []),
    ],
    // New uploads get their dimensions and preview from a queue job: poll until done.
    queryOptions: { refetchInterval: (q) => ((q.state.data?.data as LibraryImage[] | undefined)?.some((i) => i.status === "processing") ? POLL_MS : false) },
  });
  // 'All categories' counts the whole library: one unfiltered call.
  const { result: all } = useList<LibraryImage>({ resource: "images", pagination: { currentPage: 1, pageSize: 1, mode: "server" } });
  const { categories } = useCategories();

  const images = result.data ?? [];
  const total = result.total ?? 0;
  const editId = params.get("editImage");
  const inPage = (id: string | null) => (id ? images.find((i) => i._id === id) : undefined);
  // A notification can link to an image that is not on this page.
  const { result: fetched } = useOne<LibraryImage>({ resource: "images", id: editId ?? "", queryOptions: { enabled: !!editId && !listQuery.isLoading && !inPage(editId) } });
  const editImage = inPage(editId) ?? (fetched?._id === editId ? fetched : null);
  const active = inPage(activeId) ?? null;
  const selectedIds = useMemo(() => [...selected], [selected]);

  const open = (name: string, value?: string) => setParams((p) => openModalParams(p, name, value));
  const setParam = (name: string, value?: string) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (value) next.set(name, value);
      else next.delete(name);
      next.set("page", "1");
      return next;
    });
  const toggle = (id: string, on = !selected.has(id)) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const clearSelection = () => setSelected(new Set());

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
      const callback = params.get("callback");
      if (callback?.startsWith("/") && !callback.startsWith("//")) {
        const url = new URL(callback, window.location.origin);
        url.searchParams.set("imageId", image._id);
        navigate(url.pathname + url.search);
      } else toggle(image._id);
    });

  const printId = params.get("addPrint");
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

  const categoryFilter = params.get("imageCategory");
  const chip = (key: string, label: string, count: number | undefined, checked: boolean, onClick: () => void) => (
    <Tag.CheckableTag key={key} checked={checked} onChange={onClick} data-testid={`chip-${key}`}>
      {label}
      {count !== undefined && <span style={{ opacity: 0.7 }}> ({count})</span>}
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
            <SearchBox value={params.get("search") ?? ""} onSearch={(v) => setParam("search", v || undefined)} placeholder="Search images" />
          </div>
          <Select
            aria-label="Sort by"
            value={sortBy}
            style={{ width: 150 }}
            options={SORT_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
            onChange={(v: ImageSortField) => setParams((p) => withSort(p, v, sort))}
          />
          <Tooltip title={sort === "asc" ? "Ascending" : "Descending"}>
            <Button
              aria-label={sort === "asc" ? "Sort ascending" : "Sort descending"}
              icon={sort === "asc" ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
              onClick={() => setParams((p) => withSort(p, sortBy, sort === "asc" ? "desc" : "asc"))}
            />
          </Tooltip>
        </Flex>
        {uploadButton}
      </Flex>

      <div className="gs-library__chips" role="group" aria-label="Categories">
        {chip("all", "All categories", all.total, !categoryFilter, () => setParam("imageCategory"))}
        {categories.map((c) => chip(c._id, c.name, c.imageCount, categoryFilter === c._id, () => setParam("imageCategory", c._id)))}
      </div>

      <div className="gs-library">
        <div>
          {selected.size > 0 && (
            <Flex className="gs-selection-bar" align="center" justify="space-between" wrap gap={8} data-testid="selection-bar">
              <Typography.Text strong>
                {selected.size} {selected.size === 1 ? "image" : "images"} selected
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
                  checked={selected.has(image._id)}
                  onCheck={(on) => toggle(image._id, on)}
                  onClick={() => clickTile(image)}
                />
              ))}
            </div>
          )}

          <Pager
            page={Number(query.page)}
            limit={Number(query.limit)}
            total={total}
            sizes={PAGE_SIZES}
            clearTo={25}
            onPage={(page) => setParams((p) => { const n = new URLSearchParams(p); n.set("page", String(page)); return n; })}
            onLimit={(limit) => setParams((p) => { const n = new URLSearchParams(p); n.set("limit", String(limit)); n.set("page", "1"); return n; })}
          />
        </div>

        <ImageSidePanel
          image={active}
          printMode={printMode}
          selected={!!active && selected.has(active._id)}
          onEdit={(image) => open("editImage", image._id)}
          onSelect={selectImage}
          onAddToPrint={addToPrint}
        />
      </div>

      <UploadImageModal />
      <EditImageModal image={editImage} />
      <DeleteImagesModal selected={selectedIds} onDeleted={clearSelection} />
      <ChangeCategoryModal selected={selectedIds} onChanged={clearSelection} />
    </>
  );
}

function ImageTile({ image, active, checked, onCheck, onClick }: { image: LibraryImage; active: boolean; checked: boolean; onCheck: (on: boolean) => void; onClick: () => void }) {
  const broken = isBrokenImage(image);
  const src = tileSource(image);
  const classes = ["gs-tile", active && "gs-tile--active", checked && "gs-tile--selected", broken && "gs-tile--broken"].filter(Boolean).join(" ");
  return (
    <div
      className={classes}
      role="button"
      tabIndex={0}
      data-testid="image-tile"
      aria-label={broken ? BROKEN_TILE : image.name}
      onClick={onClick}
      onKeyDown={(e) => {
        if (e.target === e.currentTarget && (e.key === "Enter" || e.key === " ")) {
          e.preventDefault();
          onClick();
        }
      }}
    >
      <span className="gs-tile__check" onClick={(e) => e.stopPropagation()}>
        <Checkbox checked={checked} onChange={(e) => onCheck(e.target.checked)} aria-label={`Select ${image.name}`} />
      </span>
      {image.status === "processing" && <Tag className="gs-tile__badge" color="processing">Processing</Tag>}
      <div className="gs-tile__img">
        {broken ? BROKEN_TILE : src ? <img src={src} alt={image.name} loading="lazy" /> : null}
      </div>
      <div className="gs-tile__name" title={image.name}>{image.name}</div>
    </div>
  );
}
