/**
 * A database handle that tells `note` of every statement sent through it and whether it ran in a transaction; a
 * transaction's own begin and commit (or rollback) are noted as statements too.
 */
import type { Db, Queryable } from '../../src/db/db.ts';

export type Note = (sql: string, params: unknown[] | undefined, inTransaction: boolean) => void;

export function notingDb(db: Db, note: Note): Db {
  const noted = (q: Queryable, inTransaction: boolean): Queryable => ({
    query: (sql, params) => {
      note(sql, params, inTransaction);
      return q.query(sql, params);
    },
    exec: (sql) => {
      note(sql, undefined, inTransaction);
      return q.exec(sql);
    },
  });
  const outside = noted(db, false);
  return {
    kind: db.kind,
    query: outside.query,
    exec: outside.exec,
    transaction: async (fn) => {
      note('begin', undefined, true);
      const result = await db
        .transaction((tx) => fn(noted(tx, true)))
        .catch((error: unknown) => {
          note('rollback', undefined, true);
          throw error;
        });
      note('commit', undefined, true);
      return result;
    },
    listen: (channel, listener) => db.listen(channel, listener),
    ready: (timeoutMs) => db.ready(timeoutMs),
    interrupt: () => db.interrupt(),
    close: () => db.close(),
  };
}
