import type { NoticeListener, Queryable } from './db.ts';
import type { NoticeConnection } from './pg-notices.ts';

export const POLL_EVERY_MS = 1000;

/**
 * Hears `channel` without LISTEN, for a server that reaches the database only through a transaction pooler: reads
 * the notice log (migration 0058) every `everyMs`. Each read also takes the oldest transaction then running: every
 * older one has ended, so the next read starts there, and a notice committed after a read by a transaction that
 * began before it is still read (perhaps twice, which costs a lookup). A failed read is a lost connection: the
 * listener forgets, and the next read that succeeds starts afresh.
 */
export function pollNotices(
  query: Queryable['query'],
  channel: string,
  listener: NoticeListener,
  everyMs = POLL_EVERY_MS,
): NoticeConnection {
  let from: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  const read = async () => {
    try {
      // One statement, one snapshot: the notices it sees and the oldest transaction running are of the same moment.
      const rows = await query<{ oldest: string; payload: string | null }>(
        `with now_running as (select pg_snapshot_xmin(pg_current_snapshot()) as oldest)
         select now_running.oldest::text as oldest, notice_log.payload
           from now_running
           left join notice_log on $2::xid8 is not null and notice_log.channel = $1 and notice_log.xid >= $2::xid8
          order by notice_log.id`,
        [channel, from ?? null],
      );
      const first = from === undefined;
      from = rows[0]?.oldest;
      if (first) listener.live();
      else for (const row of rows) if (row.payload !== null) listener.notice(row.payload);
    } catch (error) {
      if (from !== undefined && !stopped) {
        console.error(`database: cannot read the notices of ${channel}, trying again: ${(error as Error).message}`);
        from = undefined;
        listener.lost();
      }
    }
    if (!stopped)
      timer = setTimeout(() => {
        reading = read();
      }, everyMs).unref();
  };
  reading = read();
  return {
    started: reading,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await reading;
    },
  };
}
