import { useEffect, useState } from "react";
import { Card, Skeleton, Typography } from "antd";
import { useSheetSettings } from "./api";
import { SheetSettingsForm } from "./SheetSettingsForm";
import type { SheetSettings } from "../../api/types";

/** Profile section: the user's default sheet settings and presets. */
export function SheetSettingsCard() {
  const settings = useSheetSettings();
  const [value, setValue] = useState<SheetSettings>();
  useEffect(() => {
    if (settings.data && !value) setValue(settings.data);
  }, [settings.data, value]);
  return (
    <Card title="Sheet Settings" id="sheet-settings">
      <Typography.Paragraph type="secondary">
        The film your gang sheets are printed on. New prints use these settings; you can change them per print before processing.
      </Typography.Paragraph>
      {value ? <SheetSettingsForm value={value} onChange={setValue} /> : <Skeleton active />}
    </Card>
  );
}
