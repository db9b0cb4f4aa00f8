import { useEffect, useState } from "react";
import { Form, Input, Modal, Rate, Typography } from "antd";
import { useInvalidate } from "@refinedev/core";
import { useQueryModal } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { QueryFormModal, useQueryModalForm } from "../common/QueryFormModal";
import { bulkChangeCategory, bulkDeleteImages } from "./api";
import { CategorySelect } from "./CategorySelect";
import { tileSource, withoutExtension } from "./library";
import type { LibraryImage } from "../../api/types";

export const IMAGE_UPDATED = "Image updated";

function useRefreshImages() {
  const invalidate = useInvalidate();
  return () =>
    Promise.all([
      invalidate({ resource: "images", invalidates: ["list", "detail"] }),
      invalidate({ resource: "image-categories", invalidates: ["list"] }),
    ]);
}

interface EditValues {
  name: string;
  imageCategoryId: string | null;
  score: number;
}

/**
 * editImage={id}: name (without extension), category, score. `image` is the tile on
 * screen when there is one; a link to an image on another page fetches it.
 */
export function EditImageModal({ image: shown }: { image?: LibraryImage | null }) {
  const [customMode, setCustomMode] = useState(false);
  const invalidate = useInvalidate();
  const form = useQueryModalForm<LibraryImage, EditValues>({
    param: "editImage",
    resource: "images",
    action: "edit",
    successMessage: IMAGE_UPDATED,
    fixedMessage: true,
    toValues: (image) => ({ name: withoutExtension(image.name), imageCategoryId: image.imageCategory?._id ?? null, score: image.score ?? 0 }),
    toPayload: (values) => ({ name: values.name.trim(), imageCategoryId: values.imageCategoryId ?? null, score: values.score ?? 0 }),
    // A changed category changes the category chips' counts.
    onSaved: () => invalidate({ resource: "image-categories", invalidates: ["list"] }),
    knownRecord: shown,
  });
  const image = form.record;
  const src = image ? tileSource(image) : null;

  return (
    <QueryFormModal
      form={form}
      title="Edit Image"
      okText="Save"
      disabled={!image || customMode}
      header={
        src && (
          <div className="gs-edit-preview">
            <img src={src} alt={image?.name} />
          </div>
        )
      }
    >
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: "Name is required" }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="imageCategoryId" label="Category">
        <CategorySelect onCustomModeChange={setCustomMode} />
      </Form.Item>
      <Form.Item name="score" label="Score">
        <Rate allowHalf />
      </Form.Item>
    </QueryFormModal>
  );
}

/**
 * deleteImage={id} deletes that image; deleteImage=true deletes the selection. The
 * server refuses images used by a draft print, with a message.
 */
export function DeleteImagesModal({ selected, onDeleted }: { selected: string[]; onDeleted: () => void }) {
  const modal = useQueryModal("deleteImage");
  const [busy, setBusy] = useState(false);
  const refresh = useRefreshImages();
  const ids = modal.value && modal.value !== "true" ? [modal.value] : selected;
  const count = ids.length;
  return (
    <Modal
      title={count === 1 ? "Delete Image" : "Delete Images"}
      open={modal.open}
      onCancel={modal.close}
      okText="Delete"
      okButtonProps={{ danger: true, loading: busy, disabled: count === 0 }}
      onOk={async () => {
        setBusy(true);
        try {
          await bulkDeleteImages(ids);
          await refresh();
          toast.success(count === 1 ? "Image deleted" : `${count} images deleted`);
          onDeleted();
          modal.close();
        } catch {
          /* toast shown by the http client */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Typography.Paragraph>
        {count === 1 ? "Delete this image?" : `Delete ${count} images?`} Images used by completed prints are kept for those prints.
      </Typography.Paragraph>
    </Modal>
  );
}

/** editCategory: move every selected image to one category (or none). */
export function ChangeCategoryModal({ selected, onChanged }: { selected: string[]; onChanged: () => void }) {
  const modal = useQueryModal("editCategory");
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [customMode, setCustomMode] = useState(false);
  const [busy, setBusy] = useState(false);
  const refresh = useRefreshImages();
  useEffect(() => {
    if (!modal.open) setCategoryId(null);
  }, [modal.open]);
  return (
    <Modal
      title="Change Category"
      open={modal.open}
      onCancel={modal.close}
      okText="Save"
      okButtonProps={{ loading: busy, disabled: selected.length === 0 || customMode }}
      destroyOnHidden
      onOk={async () => {
        setBusy(true);
        try {
          await bulkChangeCategory(selected, categoryId);
          await refresh();
          toast.success(`Category changed for ${selected.length} image${selected.length === 1 ? "" : "s"}`);
          onChanged();
          modal.close();
        } catch {
          /* toast shown by the http client */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Typography.Paragraph type="secondary">
        {selected.length} image{selected.length === 1 ? "" : "s"} selected.
      </Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label="Category">
          <CategorySelect value={categoryId} onChange={setCategoryId} onCustomModeChange={setCustomMode} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
