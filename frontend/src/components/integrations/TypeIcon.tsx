import { Tooltip } from "antd";
import { AmazonOutlined, ShopOutlined } from "@ant-design/icons";

/** The Type column's icon (spec: Etsy or WordPress; a row may also show Amazon). */
export function TypeIcon({ type }: { type: string }) {
  const icon =
    type === "WordPress" ? <span style={{ display: "inline-grid", placeItems: "center", width: 22, height: 22, borderRadius: "50%", background: "#21759b", color: "#fff", fontWeight: 700, fontFamily: "Georgia, serif", fontSize: 14, lineHeight: "22px", verticalAlign: "middle" }}>W</span> :
    type === "Amazon" ? <AmazonOutlined style={{ fontSize: 20 }} /> :
    <ShopOutlined style={{ fontSize: 20, color: "#f1641e" }} />;
  return (
    <Tooltip title={type === "WordPress" ? "WordPress (WooCommerce)" : type}>
      <span role="img" aria-label={type} data-type={type}>{icon}</span>
    </Tooltip>
  );
}
