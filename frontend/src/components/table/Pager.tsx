import { Button, Flex, Select, Typography } from "antd";
import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import { PAGE_SIZES, pageNumbers } from "../../lib/pagination";

export interface PagerProps {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  sizes?: readonly number[];
  /** Lets the user clear the page-size selector, which then falls back to this size (the image list uses 25). */
  clearTo?: number;
}

/** The table pager: at most 7 page numbers, plus a page-size selector. */
export function Pager({ page, limit, total, onPage, onLimit, sizes = PAGE_SIZES, clearTo }: PagerProps) {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const pages = pageNumbers(page, totalPages);
  return (
    <Flex className="gs-pager" justify="space-between" align="center" wrap gap={12} style={{ marginTop: 16 }}>
      <Typography.Text type="secondary">
        {total === 0 ? "0 results" : `${(page - 1) * limit + 1}–${Math.min(page * limit, total)} of ${total}`}
      </Typography.Text>
      <Flex gap={6} align="center" wrap>
        <Button size="small" icon={<LeftOutlined />} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page" />
        {pages.map((n) => (
          <Button key={n} size="small" type={n === page ? "primary" : "default"} onClick={() => onPage(n)} aria-current={n === page ? "page" : undefined}>
            {n}
          </Button>
        ))}
        <Button size="small" icon={<RightOutlined />} disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label="Next page" />
        <Select
          size="small"
          value={limit}
          style={{ width: 110 }}
          onChange={(value?: number) => onLimit(value ?? clearTo ?? limit)}
          allowClear={clearTo !== undefined}
          options={sizes.map((n) => ({ value: n, label: `${n} / page` }))}
          labelRender={({ value }) => `${value} / page`}
          aria-label="Page size"
        />
      </Flex>
    </Flex>
  );
}
