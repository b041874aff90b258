/**
 * The CPU a set of processes spends over a window, read from /proc: the Medora instances (their mail worker and
 * sealer run inside them) and the PostgreSQL backends serving their database, found in `pg_stat_activity` and
 * looked for again every second, since a pool opens and closes connections. The load generator is not counted.
 */
import { readFileSync } from 'node:fs';
import type { Queryable } from '../../src/db/db.ts';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

interface ProcessTimes {
  cpuUs: number;
  /** When the process started, in ticks since boot. */
  startTicks: number;
}

function processTimes(pid: number): ProcessTimes | undefined {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: utime 14, stime 15, starttime 22.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return {
      cpuUs: ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND,
      startTicks: Number(fields[19]),
    };
  } catch {
    return undefined; // it has exited
  }
}

const uptimeTicks = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * TICKS_PER_SECOND;

export interface CpuWindow {
  /** CPU in µs spent since the window opened: [the named processes, the PostgreSQL backends]. */
  spent(): { serversUs: number; postgresUs: number };
  close(): void;
}

/**
 * Opens a window over `pids` and the backends of `database` (seen through `db`, whose own connection is left
 * out). A process first seen after the window opened counts from 0 if it started after the window opened, else
 * from when it was first seen.
 */
export async function openCpuWindow(db: Queryable, database: string, pids: readonly number[]): Promise<CpuWindow> {
  const openedAt = uptimeTicks();
  const seen = new Map<number, { base: number; last: number; postgres: boolean }>();
  const look = (pid: number, postgres: boolean) => {
    const times = processTimes(pid);
    if (!times) return;
    const known = seen.get(pid);
    if (known) known.last = times.cpuUs;
    else {
      const base = times.startTicks >= openedAt ? 0 : times.cpuUs;
      seen.set(pid, { base, last: times.cpuUs, postgres });
    }
  };
  const backends = async () =>
    (
      await db.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      )
    ).map((row) => row.pid);
  const sample = async () => {
    for (const pid of pids) look(pid, false);
    for (const pid of await backends()) look(pid, true);
  };
  await sample();
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample, () => {});
  }, 1000);
  return {
    spent() {
      for (const pid of seen.keys()) look(pid, seen.get(pid)?.postgres ?? false);
      let serversUs = 0;
      let postgresUs = 0;
      for (const { base, last, postgres } of seen.values()) {
        if (postgres) postgresUs += last - base;
        else serversUs += last - base;
      }
      return { serversUs, postgresUs };
    },
    close: () => clearInterval(timer),
  };
}
