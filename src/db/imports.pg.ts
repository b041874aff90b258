import type { ImportLookup } from '../domain/imports/ports.ts';
import type { Queryable } from './db.ts';

/** One statement per kind of name, over the same lower(...) unique indexes that keep names unique. */
export function importLookup(db: Queryable): ImportLookup {
  const idsByLowerName = async (table: 'departments' | 'specializations', names: string[]) => {
    const rows = await db.query<{ id: number; key: string }>(
      `select id, lower(name) as key from ${table} where lower(name) = any($1::text[])`,
      [names],
    );
    return new Map(rows.map((row) => [row.key, row.id]));
  };
  return {
    departmentIds: (names) => idsByLowerName('departments', names),
    specializationIds: (names) => idsByLowerName('specializations', names),
    accountRoles: async (emails) => {
      const rows = await db.query<{ key: string; role: string }>(
        'select lower(email) as key, role from users where lower(email) = any($1::text[])',
        [emails],
      );
      return new Map(rows.map((row) => [row.key, row.role]));
    },
  };
}
