import pg from 'pg';
import type { DbTimeouts } from './timeouts.ts';

/** The limits a statement runs under: what a pooled server connection has by default, or what a statement wants. */
export interface SessionLimits {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

/**
 * A transaction's begin with its limits, each `set local` so they end with it: under a transaction pooler the next
 * transaction of this client may run on another server connection, and another client's on this one. One round
 * trip, as a plain begin. JIT off too: short OLTP queries only pay for its compilation.
 */
export function limitsBegin(limits: SessionLimits): string {
  return [
    'begin',
    `set local statement_timeout = ${limits.statementMs}`,
    `set local lock_timeout = ${limits.lockMs}`,
    `set local idle_in_transaction_session_timeout = ${limits.idleInTransactionMs}`,
    'set local jit = off',
  ].join('; ');
}

/** Whether a statement outside a transaction may run with the server connection's defaults. */
export function roleDefaultsMatch(defaults: SessionLimits | undefined, wanted: SessionLimits): boolean {
  return defaults?.statementMs === wanted.statementMs && defaults.lockMs === wanted.lockMs;
}

const SETTINGS = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'jit'] as const;

/**
 * The limits a new server connection of this role starts with in this database. With `set`, first makes them the
 * timeouts (reads' lock wait) for this role in this database when they are not: a role may set its own defaults, and
 * a pooler's new server connections start with them (one already open keeps its old ones until the pooler
 * replaces it: PgBouncer's `RECONNECT`, or `server_lifetime`). Read on a connection of its own.
 */
export async function serverDefaults(
  connection: pg.ClientConfig,
  timeouts: DbTimeouts,
  set: boolean,
): Promise<SessionLimits> {
  const client = new pg.Client({
    ...connection,
    connectionTimeoutMillis: timeouts.acquireMs,
    query_timeout: timeouts.statementMs,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    // A connection's own settings are its role's defaults: Medora sets none on a pooled connection.
    const rows = (
      await client.query<{ name: string; setting: string }>(
        'select name, setting from pg_settings where name = any($1)',
        [SETTINGS],
      )
    ).rows;
    const value = (name: string) => rows.find((row) => row.name === name)?.setting ?? '';
    const found = {
      statementMs: Number(value('statement_timeout')),
      lockMs: Number(value('lock_timeout')),
      idleInTransactionMs: Number(value('idle_in_transaction_session_timeout')),
    };
    const wanted = { ...timeouts, lockMs: timeouts.readLockMs };
    const same =
      roleDefaultsMatch(found, wanted) &&
      found.idleInTransactionMs === wanted.idleInTransactionMs &&
      value('jit') === 'off';
    if (!set || same) return found;
    const [row] = (await client.query<{ db: string }>('select quote_ident(current_database()) as db')).rows;
    const alter = `alter role current_user in database ${row?.db}`;
    // Instances starting together would each alter the same row, and all but one fail (tuple concurrently updated):
    // they take turns, by a lock that ends with the transaction.
    await client.query(
      `begin; set local lock_timeout = ${timeouts.lockMs};
       select pg_advisory_xact_lock(hashtext('medora: role defaults'));
       ${alter} set statement_timeout = ${wanted.statementMs}; ${alter} set lock_timeout = ${wanted.lockMs};
       ${alter} set idle_in_transaction_session_timeout = ${wanted.idleInTransactionMs}; ${alter} set jit = off;
       commit`,
    );
    return wanted;
  } finally {
    void client.end().catch(() => {});
  }
}
