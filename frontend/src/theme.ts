import type { ThemeConfig } from "antd";

// Text colours meet WCAG AA (4.5:1) on white, on the page background (#f5f7fb) and on the
// tags' tinted backgrounds: antd's default secondary grey (#8c8c8c, 3.36:1, statistic
// titles, breadcrumbs, descriptions), its link blue (#1677ff, 4.1:1) and its status colours
// (#ff4d4f, #52c41a, #faad14 as text) are too light. See docs/frontend.md "Accessibility".
const MUTED_TEXT = "#5c6370";

export const theme: ThemeConfig = {
  token: {
    colorPrimary: "#4f46e5",
    colorLink: "#4f46e5",
    // Darker status colours for text; their tints stay antd's light ones (derived from a dark
    // seed they would turn grey).
    colorInfo: "#0958d9",
    colorInfoBg: "#e6f4ff",
    colorInfoBorder: "#91caff",
    colorSuccess: "#237804",
    colorSuccessBg: "#f6ffed",
    colorSuccessBorder: "#b7eb8f",
    colorWarning: "#874d00",
    colorWarningBg: "#fffbe6",
    colorWarningBorder: "#ffe58f",
    colorError: "#cf1322",
    colorErrorBg: "#fff2f0",
    colorErrorBorder: "#ffccc7",
    colorTextDescription: MUTED_TEXT,
    colorTextTertiary: MUTED_TEXT,
    borderRadius: 8,
    fontFamily: '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    Layout: { headerBg: "#ffffff", siderBg: "#ffffff", bodyBg: "#f5f7fb" },
  },
};
