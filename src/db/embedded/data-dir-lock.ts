import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Who holds an embedded database: the server (reachable through its socket) or a command that opened it itself. */
export type LockRole = 'server' | 'command';

export interface LockHolder {
  pid: number;
  role: LockRole;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat), where the system tells it. */
  start?: string;
  /** /proc/sys/kernel/random/boot_id, where the system tells it. */
  boot?: string;
}

export class DatabaseLockedError extends Error {
  constructor(
    dataDir: string,
    readonly holder: LockHolder | undefined,
    hint = 'Stop that process and try again, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
  ) {
    const who = !holder
      ? ''
      : holder.role === 'server'
        ? ` (the server, pid ${holder.pid})`
        : ` (a medora command, pid ${holder.pid})`;
    super(
      holder?.pid === process.pid
        ? `The embedded database in ${dataDir} is open in this process already (pid ${holder.pid}).`
        : `The embedded database in ${dataDir} is in use by another Medora process${who}. ${hint}`,
    );
    this.name = 'DatabaseLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * One process owns an embedded database; a second gets a clear error instead of a corrupted folder.
 * A lock names its process by pid, start time and boot, so a pid reused after a crash — by another program,
 * or by this very process when a container starts it as pid 1 again — does not keep the folder locked.
 * `stillServing` is asked too, so a server whose pid this process cannot see (another container on the same
 * volume) still counts as alive while it answers on its socket.
 */
export async function acquireDataDirLock(
  dataDir: string,
  role: LockRole,
  stillServing: () => Promise<boolean> = async () => false,
): Promise<DataDirLock> {
  const path = lockPath(dataDir);
  const me = currentProcess(role);
  const content = JSON.stringify(me);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside and linked into place, so a reader never sees a half-written lock, and link fails if one exists.
    const draft = `${path}.${process.pid}.${attempt}`;
    writeFileSync(draft, content);
    try {
      linkSync(draft, path);
      return {
        release: () => {
          // Only our own: had someone deleted it by hand, the folder may be another process's by now.
          if (readLock(path)?.raw === content) unlinkQuietly(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkQuietly(draft);
    }
    const found = readLock(path);
    if (found && (isAlive(found.holder, found.writtenAt) || (await stillServing()))) {
      throw new DatabaseLockedError(dataDir, found.holder);
    }
    unlinkQuietly(path); // left behind by a process that has died
  }
  throw new DatabaseLockedError(dataDir, readLock(path)?.holder);
}

/** The live holder of the folder's lock, if any. */
export function lockHolder(dataDir: string): LockHolder | undefined {
  const found = readLock(lockPath(dataDir));
  return found && isAlive(found.holder, found.writtenAt) ? found.holder : undefined;
}

const lockPath = (dataDir: string) => join(dataDir, 'medora.lock');

function readLock(path: string): { holder: LockHolder; raw: string; writtenAt: number } | undefined {
  let raw: string;
  let writtenAt: number;
  try {
    raw = readFileSync(path, 'utf8');
    writtenAt = statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { holder: parseHolder(raw), raw, writtenAt };
}

function parseHolder(raw: string): LockHolder {
  // Locks written before pid, start and boot were recorded hold a bare pid, and only a server wrote them.
  if (/^\d+$/.test(raw.trim())) return { pid: Number(raw), role: 'server' };
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    if (
      typeof parsed.pid === 'number' &&
      Number.isInteger(parsed.pid) &&
      (parsed.role === 'server' || parsed.role === 'command')
    ) {
      return { pid: parsed.pid, role: parsed.role, start: parsed.start, boot: parsed.boot };
    }
  } catch {}
  // Unreadable (a disk filled up while writing, say): nobody can be shown to hold it.
  return { pid: 0, role: 'command' };
}

function isAlive(holder: LockHolder, writtenAt: number): boolean {
  if (holder.pid <= 0) return false;
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  if (!pidExists(holder.pid)) return false;
  const start = processStart(holder.pid);
  if (holder.start && start) return holder.start === start;
  // A bare-pid lock: the pid is someone else's if that process started after the lock was written.
  const startedAt = processStartedAt(holder.pid);
  return startedAt === undefined || startedAt <= writtenAt + 1000;
}

function currentProcess(role: LockRole): LockHolder {
  return { pid: process.pid, role, start: processStart(process.pid), boot: bootId() };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat; the command name before it may hold spaces and parentheses, so count from the last ')'. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function processStartedAt(pid: number): number | undefined {
  const start = processStart(pid);
  if (!start) return undefined;
  try {
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // USER_HZ is 100 on every Linux that Node runs on.
    return (bootSeconds + Number(start) / 100) * 1000;
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}
