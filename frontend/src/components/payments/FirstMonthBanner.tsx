import { Alert } from "antd";
import { GiftOutlined } from "@ant-design/icons";
import { DISCOUNT_BANNER, usePackages } from "./api";

/** Shown only while the first-month discount applies to the signed-in user. */
export function FirstMonthBanner() {
  const { data } = usePackages();
  if (!data?.discountActive) return null;
  const until = new Date(data.discountEndsAt).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" });
  return (
    <Alert
      type="success"
      showIcon
      icon={<GiftOutlined />}
      message={DISCOUNT_BANNER}
      description={`Your discount lasts until ${until}.`}
      data-testid="first-month-banner"
      style={{ marginBottom: 24 }}
    />
  );
}
