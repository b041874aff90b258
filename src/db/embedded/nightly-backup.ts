import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, clinicDateTime, clinicInstant } from '../../domain/shared/clock.ts';
import { writeAtomically } from '../atomic-file.ts';

export interface NightlyBackupOptions {
  /** DATA_DIR/backups */
  dir: string;
  /** HH:mm on the clinic's clock. */
  time: string;
  /** Backups kept; older ones are deleted after each new one. */
  keep: number;
  timeZone: string;
  backup(): Promise<Uint8Array>;
  log(line: string): void;
  now?: () => Date;
  /** Pause before trying a failed backup again. */
  retryAfterMs?: number;
}

export interface NightlyBackups {
  stop(): Promise<void>;
}

const NAME = /^medora-\d{4}-\d{2}-\d{2}-\d{4}\.sql\.gz$/;
const PARTIAL = /^\.medora-.*\.partial$/;
const DAY_MS = 86_400_000;
const RETRIES = 3;

/**
 * Backs the embedded database up every night at `time` into `dir`, keeping the newest `keep`. A failed backup is
 * logged and tried again a few times, and never stops the server. A server that was not running at that time
 * (a machine switched off at night) backs up on start when the newest backup is over a day old.
 */
export function scheduleNightlyBackups(opts: NightlyBackupOptions): NightlyBackups {
  const now = opts.now ?? (() => new Date());
  const retryAfterMs = opts.retryAfterMs ?? 15 * 60_000;
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  // A backup cut short by a crash; the complete ones never carry this name.
  for (const file of readdirSync(opts.dir).filter((name) => PARTIAL.test(name)))
    rmSync(join(opts.dir, file), { force: true });

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const at = (delayMs: number, attempt: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = backUp(attempt);
    }, delayMs);
  };
  const untilNext = () => {
    const today = clinicDateTime(now(), opts.timeZone).date;
    const next = [today, addDays(today, 1)]
      .map((date) => clinicInstant(date, opts.time, opts.timeZone))
      .find((instant) => instant > now());
    // Tomorrow's time of day is always ahead, so only a broken clock gets here.
    if (!next) throw new Error(`no backup time at ${opts.time} after ${now().toISOString()}`);
    return next.getTime() - now().getTime();
  };
  const backUp = async (attempt: number) => {
    const started = performance.now();
    const { date, time } = clinicDateTime(now(), opts.timeZone);
    const path = join(opts.dir, `medora-${date}-${time.replace(':', '')}.sql.gz`);
    try {
      await writeAtomically(path, await opts.backup());
      const pruned = prune(opts.dir, opts.keep);
      opts.log(
        `backup: wrote ${path} (${statSync(path).size} bytes) in ${Math.round(performance.now() - started)} ms${pruned ? `; removed ${pruned} older` : ''}`,
      );
      at(untilNext(), 1);
    } catch (error) {
      const again = attempt < RETRIES;
      opts.log(
        `backup: failed (attempt ${attempt} of ${RETRIES}): ${(error as Error).message}${again ? `; trying again in ${Math.round(retryAfterMs / 60_000)} min` : ''}`,
      );
      at(again ? retryAfterMs : untilNext(), again ? attempt + 1 : 1);
    }
  };

  const newest = backups(opts.dir)[0];
  at(newest && now().getTime() - statSync(join(opts.dir, newest)).mtimeMs < DAY_MS ? untilNext() : 0, 1);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Complete backups in `dir`, newest first (the names sort by the clinic's date and time). */
function backups(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort()
    .reverse();
}

function prune(dir: string, keep: number): number {
  const old = backups(dir).slice(keep);
  for (const name of old) rmSync(join(dir, name), { force: true });
  return old.length;
}
