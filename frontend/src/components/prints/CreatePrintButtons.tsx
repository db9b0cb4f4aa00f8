import { Button, Space, Tooltip } from "antd";
import { FileAddOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { useSearchParams } from "../../lib/searchParams";
import { openModalParams } from "../../lib/queryModal";
import { toast } from "../../lib/toast";
import { MSG } from "./rules";
import { ProcessWarningModal } from "./PrintModals";

export interface CreatePrintButtonsProps {
  /** Selected lines; both buttons are disabled without any. */
  count: number;
  totalQuantity: number;
  /** True when some line has no image or no size. */
  missing: boolean;
  pending: boolean;
  /** Why the lines cannot be processed (the live layout's first blocking item), or null. A draft can still be saved. */
  blocked?: string | null;
  onCreate: (mode: "draft" | "process") => void;
}

/**
 * 'Create Print (Draft)' and 'Create Print (Process)', shared by manual create and
 * review print. Process first asks through printWarningModal=<total quantity>.
 */
export function CreatePrintButtons({ count, totalQuantity, missing, pending, blocked = null, onCreate }: CreatePrintButtonsProps) {
  const [, setParams] = useSearchParams();
  const guard = (then: () => void) => () => (missing ? toast.error(MSG.imageOrSizeMissing) : then());
  return (
    <>
      <Space wrap>
        <Button icon={<FileAddOutlined />} disabled={count === 0 || pending} loading={pending} onClick={guard(() => onCreate("draft"))}>
          Create Print (Draft)
        </Button>
        <Tooltip title={blocked}>
          <Button type="primary" icon={<ThunderboltOutlined />} disabled={count === 0 || pending || !!blocked}
            onClick={guard(() => setParams((p) => openModalParams(p, "printWarningModal", String(totalQuantity))))}>
            Create Print (Process)
          </Button>
        </Tooltip>
      </Space>
      <ProcessWarningModal kind="quantity" value={totalQuantity} pending={pending} onProceed={() => onCreate("process")} />
    </>
  );
}
