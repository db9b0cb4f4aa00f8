import type { ReactNode } from "react";
import { Card, Skeleton, Statistic } from "antd";

/** One clickable statistics card of the dashboard; its name is what it shows: the label and the number. */
export function StatCard({ label, value, icon, loading, onOpen }: { label: string; value: number | undefined; icon: ReactNode; loading: boolean; onOpen: () => void }) {
  return (
    <Card
      hoverable
      className="gs-stat-card"
      role="link"
      tabIndex={0}
      data-testid="stat-card"
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onOpen();
        }
      }}
    >
      {loading ? (
        <Skeleton active paragraph={false} />
      ) : (
        <Statistic title={label} value={value ?? 0} prefix={<span aria-hidden>{icon}</span>} valueStyle={{ fontWeight: 600 }} />
      )}
    </Card>
  );
}
