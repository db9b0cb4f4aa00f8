import { Modal } from "antd";
import { ImageLibrary } from "../images/ImageLibrary";
import type { LibraryImage } from "../../api/types";
import { useQueryModal } from "../../lib/queryModal";

// The library keeps its own list state in the URL; closing the picker clears it too.
const LIBRARY_PARAMS = ["page", "limit", "sortBy", "sort", "search", "imageCategory"];

/** addPrint=true: the image library in print mode (Quantity, Size, 'Add to print'). */
export function AddItemModal({ onAdd }: { onAdd: (image: LibraryImage, sizeId: string, quantity: number) => Promise<unknown> }) {
  const modal = useQueryModal("addPrint", LIBRARY_PARAMS);
  return (
    <Modal title="Add Item" open={modal.open} onCancel={modal.close} footer={null} width="min(1280px, 96vw)" destroyOnHidden
      styles={{ body: { maxHeight: "78vh", overflow: "auto" } }}>
      {modal.open && <ImageLibrary printMode onAddToPrint={onAdd} />}
    </Modal>
  );
}
