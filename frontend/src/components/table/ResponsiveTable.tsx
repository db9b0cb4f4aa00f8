import type { Key, ReactNode } from "react";
import { Checkbox, Empty, Grid, Pagination, Spin, Table, type TableProps } from "antd";
import type { ColumnType } from "antd/es/table";
import "./table.css";

type Row = object;

/** The row's key, as antd's Table would take it. */
export function rowKeyOf<T extends Row>(row: T, index: number, rowKey: TableProps<T>["rowKey"]): Key {
  if (typeof rowKey === "function") return rowKey(row, index);
  const key = rowKey ?? "key";
  return (row as Record<string, unknown>)[key as string] as Key;
}

/** A column's value for the row: its render, else its dataIndex (a name or a path). */
export function cellOf<T extends Row>(column: ColumnType<T>, row: T, index: number): ReactNode {
  const path = column.dataIndex === undefined ? [] : Array.isArray(column.dataIndex) ? column.dataIndex : [column.dataIndex];
  const value = path.reduce<unknown>((v, k) => (v == null ? v : (v as Record<string, unknown>)[k as string]), path.length ? row : undefined);
  if (column.render) return column.render(value, row, index) as ReactNode;
  return value as ReactNode;
}

/**
 * antd's Table on wide screens; under antd's `sm` breakpoint (576 px) each row is a card
 * listing its columns as label and value, so nothing scrolls sideways on a phone. Row
 * selection, expanded rows (shown inside the row's card) and pagination carry over.
 * See docs/frontend.md "Phones".
 */
export function ResponsiveTable<T extends Row>(props: TableProps<T>) {
  const screens = Grid.useBreakpoint();
  // Until antd has measured the window, `sm` is undefined: draw the table, as before.
  if (screens.sm !== false) return <Table<T> {...props} />;
  return <CardList<T> {...props} />;
}

function CardList<T extends Row>({ columns = [], dataSource = [], rowKey, loading, locale, expandable, rowSelection, pagination, className }: TableProps<T>) {
  // Columns with a header become label and value; those without (row actions) line up below.
  const cols = (columns as ColumnType<T>[]).filter((c) => !c.hidden).map((c, ci) => ({ c, ci, title: typeof c.title === "function" ? null : c.title }));
  const labelled = cols.filter((x) => x.title);
  const bare = cols.filter((x) => !x.title);
  const keys = dataSource.map((row, i) => rowKeyOf(row, i, rowKey));
  const selected = rowSelection?.selectedRowKeys ?? [];
  const select = (next: Key[]) =>
    rowSelection?.onChange?.(next, dataSource.filter((_, i) => next.includes(keys[i])), { type: "multiple" });
  const allOn = keys.length > 0 && keys.every((k) => selected.includes(k));
  const spinning = typeof loading === "object" ? loading.spinning : loading;

  return (
    <Spin spinning={!!spinning}>
      <div className={`gs-cards ${className ?? ""}`} data-testid="card-list">
        {rowSelection && keys.length > 1 && (
          <Checkbox
            className="gs-cards__all"
            checked={allOn}
            indeterminate={!allOn && keys.some((k) => selected.includes(k))}
            onChange={(e) => select(e.target.checked ? keys : [])}
          >
            Select all
          </Checkbox>
        )}
        {dataSource.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={(locale?.emptyText as ReactNode) ?? "No data"} />}
        {dataSource.map((row, index) => {
          const key = keys[index];
          const open = expandable?.expandedRowKeys?.includes(key);
          return (
            <div key={String(key)} className="gs-card" data-testid="card-row">
              {rowSelection && (
                <Checkbox
                  className="gs-card__select"
                  checked={selected.includes(key)}
                  onChange={(e) => select(e.target.checked ? [...selected, key] : selected.filter((k) => k !== key))}
                >
                  Select
                </Checkbox>
              )}
              <dl className="gs-card__fields">
                {labelled.map(({ c, ci, title }) => (
                  <div key={String(c.key ?? ci)} className="gs-card__field">
                    <dt>{title}</dt>
                    <dd>{cellOf(c, row, index)}</dd>
                  </div>
                ))}
              </dl>
              {bare.length > 0 && (
                <div className="gs-card__actions">
                  {bare.map(({ c, ci }) => <span key={String(c.key ?? ci)}>{cellOf(c, row, index)}</span>)}
                </div>
              )}
              {open && expandable?.expandedRowRender && <div className="gs-card__expanded">{expandable.expandedRowRender(row, index, 0, true)}</div>}
            </div>
          );
        })}
        {pagination && (
          <Pagination
            size="small"
            align="center"
            {...pagination}
            showSizeChanger={false}
          />
        )}
      </div>
    </Spin>
  );
}
