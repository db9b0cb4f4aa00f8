import { Button } from "antd";
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Link } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { PageShell } from "../../components/common/PageShell";
import { ImageLibrary } from "../../components/images/ImageLibrary";

export function ImagesPage() {
  const [params] = useSearchParams();
  const printId = params.get("addPrint");
  const backToPrint = printId && printId !== "true" ? `/prints/${encodeURIComponent(printId)}` : null;
  return (
    <PageShell
      title="Images"
      extra={backToPrint && <Link to={backToPrint}><Button icon={<ArrowLeftOutlined />}>Back to print</Button></Link>}
    >
      <ImageLibrary />
    </PageShell>
  );
}
