import { useState } from "react";
import { Avatar, Flex, Modal, Select, Typography } from "antd";
import { PictureOutlined } from "@ant-design/icons";
import type { LibraryImage } from "../../api/types";
import { SizeSelect } from "../sizes/SizeSelect";
import { useDebounced } from "./api";
import type { DesignImage } from "../../api/types";
import { useResourceList } from "../../hooks/useResource";

export function Thumb({ image, size = 48 }: { image: DesignImage | null | undefined; size?: number }) {
  const src = image?.previewFile?.path ?? image?.file?.path;
  // The whole design, letterboxed (an avatar's image covers its box and cut designs' edges off).
  return (
    <Avatar
      shape="square"
      size={size}
      src={src ? <img src={src} alt={image?.name} style={{ objectFit: "contain" }} data-testid="item-thumb" /> : undefined}
      icon={<PictureOutlined />}
      style={{ background: "#f1f5f9", flex: "none" }}
    />
  );
}

/** Searchable dropdown of the library's ready images, with thumbnails. */
export function ImageSelect({ value, onChange, ariaLabel = "Image" }: { value?: string; onChange: (image: LibraryImage) => void; ariaLabel?: string }) {
  const [search, setSearch] = useState("");
  const term = useDebounced(search, 300);
  const { result, query } = useResourceList("images", { pagination: { currentPage: 1, pageSize: 50, mode: "server" },
    sorters: [{ field: "createdAt", order: "desc" }],
    filters: term ? [{ field: "search", operator: "contains", value: term }] : [],
  });
  const images = (result.data ?? []).filter((i) => i.status !== "error");
  return (
    <Select
      showSearch
      filterOption={false}
      onSearch={setSearch}
      loading={query.isFetching}
      placeholder="Search images"
      aria-label={ariaLabel}
      style={{ width: "100%" }}
      value={value}
      onChange={(id: string) => {
        const image = images.find((i) => i._id === id);
        if (image) onChange(image);
      }}
      options={images.map((i) => ({
        value: i._id,
        label: (
          <Flex gap={8} align="center">
            <Thumb image={i} size={24} />
            <Typography.Text ellipsis>{i.name}</Typography.Text>
          </Flex>
        ),
      }))}
    />
  );
}

/** Change the image of a print item. */
export function ChangeImageModal({ open, current, onCancel, onSave, pending }: { open: boolean; current?: string; onCancel: () => void; onSave: (imageId: string) => void; pending: boolean }) {
  const [picked, setPicked] = useState<LibraryImage | null>(null);
  return (
    <Modal title="Change image" open={open} onCancel={onCancel} okText="Save" destroyOnHidden afterClose={() => setPicked(null)}
      okButtonProps={{ disabled: !picked || picked._id === current || pending, loading: pending }} onOk={() => picked && onSave(picked._id)}>
      <ImageSelect value={picked?._id ?? current} onChange={setPicked} />
      {picked && (
        <Flex gap={12} align="center" style={{ marginTop: 16 }}>
          <Thumb image={picked} size={72} />
          <Typography.Text strong>{picked.name}</Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}

/** Change the size of a print item (the select offers 'Add New Size'). */
export function ChangeSizeModal({ open, current, onCancel, onSave, pending }: { open: boolean; current?: string; onCancel: () => void; onSave: (sizeId: string) => void; pending: boolean }) {
  const [picked, setPicked] = useState<string | undefined>();
  return (
    <Modal title="Change size" open={open} onCancel={onCancel} okText="Save" destroyOnHidden afterClose={() => setPicked(undefined)}
      okButtonProps={{ disabled: !picked || picked === current || pending, loading: pending }} onOk={() => picked && onSave(picked)}>
      <SizeSelect value={picked ?? current} onChange={(id) => setPicked(id)} style={{ width: "100%" }} aria-label="Size" />
    </Modal>
  );
}
