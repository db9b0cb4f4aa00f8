import type { TableProps } from "antd";
import type { ColumnType } from "antd/es/table";
import { Pager } from "./Pager";
import { ResponsiveTable } from "./ResponsiveTable";
import type { ListState } from "../../lib/urlList";

export type DataColumn<T> = ColumnType<T> & {
  key: string;
  /** The API's sortBy value; present means the header is sortable. */
  sortField?: string;
};

export interface DataTableProps<T> extends Omit<TableProps<T>, "columns" | "pagination" | "onChange"> {
  columns: DataColumn<T>[];
  /** The screen's `useUrlList()`: the table reads its page and sort and writes clicks back. */
  list: {
    state: Pick<ListState, "page" | "limit" | "sortBy" | "sort">;
    toggleSort: (field: string) => void;
    setPage: (page: number) => void;
    setLimit: (limit: number) => void;
  };
  total: number;
}

/**
 * The shared table: rows keyed by _id, sortable headers that
 * cycle asc → desc → none through the URL, the shared Pager, empty text 'No data'; cards
 * instead of rows on a phone.
 */
export function DataTable<T extends { _id: string }>({ columns, list, total, ...rest }: DataTableProps<T>) {
  const { sortBy, sort } = list.state;
  const cols = columns.map((c) =>
    c.sortField
      ? {
          ...c,
          sorter: true,
          showSorterTooltip: false,
          sortOrder: sortBy === c.sortField ? (sort === "asc" ? "ascend" : sort === "desc" ? "descend" : null) : null,
        }
      : c,
  ) as DataColumn<T>[];

  return (
    <>
      <ResponsiveTable<T>
        rowKey="_id"
        columns={cols}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: "No data" }}
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== "sort") return;
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          // antd reports no column when a sort is cleared; that is the currently sorted one.
          const field = (s?.column as DataColumn<T> | undefined)?.sortField ?? columns.find((c) => c.key === s?.columnKey)?.sortField ?? sortBy;
          if (field) list.toggleSort(field);
        }}
        {...rest}
      />
      <Pager page={list.state.page} limit={list.state.limit} total={total} onPage={list.setPage} onLimit={list.setLimit} />
    </>
  );
}
