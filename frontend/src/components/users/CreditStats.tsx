import { Card, Col, Row, Statistic } from "antd";
import { EditOutlined } from "@ant-design/icons";

/**
 * Available and used credits; when `onEdit` is given, clicking the balance opens the credit
 * editor (the button is named by what it shows: the label, the edit icon and the balance).
 */
export function CreditStats({ available, used, onEdit }: { available: number; used: number; onEdit?: () => void }) {
  return (
    <Row gutter={16}>
      <Col xs={12}>
        <Card
          size="small"
          hoverable={!!onEdit}
          onClick={onEdit}
          data-testid="available-credits"
          role={onEdit ? "button" : undefined}
        >
          <Statistic title={<>Available credits {onEdit && <EditOutlined />}</>} value={available} valueStyle={{ color: "#4f46e5" }} />
        </Card>
      </Col>
      <Col xs={12}>
        <Card size="small" data-testid="used-credits">
          <Statistic title="Used credits" value={used} />
        </Card>
      </Col>
    </Row>
  );
}
