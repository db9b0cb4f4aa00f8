import { Button, Space } from "antd";
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
  onCreate: (mode: "draft" | "process") => void;
}

/**
 * 'Create Print (Draft)' and 'Create Print (Process)', shared by manual create and
 * review print. Process first asks through printWarningModal=<total quantity>.
 */
export function CreatePrintButtons({ count, totalQuantity, missing, pending, onCreate }: CreatePrintButtonsProps) {
  const [, setParams] = useSearchParams();
  const guard = (then: () => void) => () => (missing ? toast.error(MSG.imageOrSizeMissing) : then());
  return (
    <>
      <Space wrap>
        <Button icon={<FileAddOutlined />} disabled={count === 0 || pending} loading={pending} onClick={guard(() => onCreate("draft"))}>
          Create Print (Draft)
        </Button>
        <Button type="primary" icon={<ThunderboltOutlined />} disabled={count === 0 || pending}
          onClick={guard(() => setParams((p) => openModalParams(p, "printWarningModal", String(totalQuantity))))}>
          Create Print (Process)
        </Button>
      </Space>
      <ProcessWarningModal kind="quantity" value={totalQuantity} pending={pending} onProceed={() => onCreate("process")} />
    </>
  );
}
