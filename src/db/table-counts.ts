import type { Queryable } from './db.ts';

export interface TableCount {
  table: string;
  rows: number;
}

/** Row counts of the tables that hold data (schema_migrations aside), for saying what a restore replaces. */
export async function tableCounts(db: Queryable): Promise<TableCount[]> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'
     order by table_name`,
  );
  if (tables.length === 0) return [];
  const counts = await db.query<TableCount>(
    tables
      .map(
        ({ name }) =>
          `select '${name.replaceAll("'", "''")}' as "table", count(*)::int as rows from "${name.replaceAll('"', '""')}"`,
      )
      .join(' union all '),
  );
  return counts.filter((count) => count.rows > 0);
}

export const describeCounts = (counts: TableCount[]) => counts.map(({ table, rows }) => `${rows} ${table}`).join(', ');
