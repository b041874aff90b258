import pg from 'pg';
import type { NoticeListener } from './db.ts';

export interface NoticeConnection {
  /** Settles once the first attempt to listen has succeeded or failed. */
  started: Promise<void>;
  stop(): Promise<void>;
}

const RELISTEN_AFTER_MS = 1000;

/**
 * LISTEN on a client outside the pool, connecting again a second after it is lost, until stopped; each time to the
 * server `connection()` names then (after a failover, the new primary).
 */
export function listenOnOwnConnection(
  connection: () => pg.ClientConfig,
  channel: string,
  listener: NoticeListener,
): NoticeConnection {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const drop = (attempt: pg.Client) => {
    if (client !== attempt) return;
    client = undefined;
    listener.lost();
    if (!stopped) retry = setTimeout(connect, RELISTEN_AFTER_MS).unref();
  };
  const connect = async () => {
    // Named so an operator (and a test) can tell this connection from the pool's in pg_stat_activity.
    const attempt = new pg.Client({ ...connection(), application_name: `medora notices (pid ${process.pid})` });
    client = attempt;
    attempt.on('notification', (message) => listener.notice(message.payload ?? ''));
    attempt.on('error', () => drop(attempt));
    attempt.on('end', () => drop(attempt));
    try {
      await attempt.connect();
      await attempt.query(`listen ${channel}`);
      if (client === attempt) listener.live();
    } catch (error) {
      if (!stopped) console.error(`database: cannot listen on ${channel}, trying again: ${(error as Error).message}`);
      drop(attempt);
      await attempt.end().catch(() => {});
    }
  };
  return {
    started: connect(),
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
