/**
 * A report's table: every row and every column at once, no pager, no search and no row Details, for a summary of a
 * few rows or a list that prints whole (the takings, the census). Numbers align right; headers wrap on a narrow
 * screen rather than any column hiding, and a phone shows each row as a card.
 */
import type { ReactNode } from 'react';

export interface ReportColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** A figure: aligned right. */
  numeric?: boolean;
}

interface ReportTableProps<Row> {
  /** The table's caption and accessible name. */
  label: string;
  columns: ReportColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** A last row of totals, one cell per column. */
  footer?: ReactNode[];
  emptyText?: string;
}

export function ReportTable<Row>({ label, columns, rows, rowKey, footer, emptyText = 'None.' }: ReportTableProps<Row>) {
  const align = (column: ReportColumn<Row>) => (column.numeric ? 'numeric' : undefined);
  return (
    <div className="data-table report-table">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus, so the keyboard can scroll it (WCAG 2.1.1) */}
      <section className="table-scroll" aria-label={label} tabIndex={0}>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={align(column)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="table-empty">
                  {emptyText}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} data-label={column.header} className={align(column)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {footer && (
            <tfoot>
              <tr>
                {footer.map((cell, index) => {
                  const column = columns[index];
                  return index === 0 ? (
                    <th key={column?.header ?? index} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={column?.header ?? index} data-label={column?.header} className={column && align(column)}>
                      {cell}
                    </td>
                  );
                })}
              </tr>
            </tfoot>
          )}
        </table>
      </section>
    </div>
  );
}
