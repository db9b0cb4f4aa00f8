import { Card, Empty } from "antd";
import { PageShell } from "../../components/common/PageShell";

// Placeholder until the prints issue builds this screen (spec §2 Review Print).
export function ReviewPrintPage() {
  return (
    <PageShell title="Review Print" crumbs={[{ title: "Prints", to: "/prints" }, { title: "Review Print" }]}>
      <Card>
        <Empty />
      </Card>
    </PageShell>
  );
}
