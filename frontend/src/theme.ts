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
    colorInfo: "#0958d9",
    colorSuccess: "#237804",
    colorWarning: "#874d00",
    colorError: "#cf1322",
    colorTextDescription: MUTED_TEXT,
    colorTextTertiary: MUTED_TEXT,
    borderRadius: 8,
    fontFamily: '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    Layout: { headerBg: "#ffffff", siderBg: "#ffffff", bodyBg: "#f5f7fb" },
  },
};
