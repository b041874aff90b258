import { write, writeSync } from 'node:fs';
import { CALENDAR_FEED_PREFIX } from '../links.ts';

/** The access log's lines wait at most this long before they are written out together. */
export const ACCESS_LOG_FLUSH_MS = 100;
const ACCESS_LOG_MAX_CHARS = 64 * 1024;

export interface LineBatch {
  line(text: string): void;
  flush(): void;
}

/**
 * Lines written in batches: at most `flushMs` after the first waiting one, at once when a batch grows past
 * `maxChars`, and whenever `flush()` is called. A write per request — console.log's synchronous write to a file
 * or pipe — took a tenth of a cheap read's CPU time, and a write that waits on a busy disk stalls every request.
 */
export function batchedLines(
  write: (chunk: string) => void,
  flushMs = ACCESS_LOG_FLUSH_MS,
  maxChars = ACCESS_LOG_MAX_CHARS,
): LineBatch {
  let waiting: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const chunk = `${waiting.join('\n')}\n`;
    waiting = [];
    chars = 0;
    write(chunk);
  };
  const line = (text: string) => {
    waiting.push(text);
    chars += text.length + 1;
    if (chars >= maxChars) flush();
    // Unreferenced, so a pending flush never keeps the process up; stdoutLog's exit hook writes what is left.
    else timer ??= setTimeout(flush, flushMs).unref();
  };
  return { line, flush };
}

/**
 * Chunks written to a file descriptor in order, one write at a time on libuv's thread pool: a write to a file or
 * pipe can block for a long while (a disk busy with the database's writes, a slow reader), and the event loop
 * must not wait with it. `drainSync` writes out what has not been handed over yet, for the process's exit.
 */
export function asyncFdWriter(
  fd: number,
  fs: Pick<typeof import('node:fs'), 'write' | 'writeSync'> = { write, writeSync },
) {
  const queue: Buffer[] = [];
  let writing = false;
  const next = (): void => {
    const chunk = queue[0];
    if (!chunk) {
      writing = false;
      return;
    }
    writing = true;
    fs.write(fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && (error as NodeJS.ErrnoException).code === 'EAGAIN') {
        setTimeout(next, 10).unref();
        return;
      }
      // Past an error (the log's reader went away) the chunk is dropped: a request never fails for its log line.
      if (error || written >= chunk.length) queue.shift();
      else queue[0] = chunk.subarray(written);
      next();
    });
  };
  return {
    write(chunk: string) {
      queue.push(Buffer.from(chunk));
      if (!writing) next();
    },
    drainSync() {
      // The chunk being written belongs to the thread pool; what waits behind it is written here.
      for (const chunk of queue.splice(writing ? 1 : 0)) {
        try {
          fs.writeSync(fd, chunk);
        } catch {
          return;
        }
      }
    },
  };
}

let stdoutLines: LineBatch | undefined;
/**
 * One batch for every server of the process, on stdout: written asynchronously to a file or pipe, through
 * process.stdout to a terminal; what is left is written out when the process exits.
 */
export function stdoutLog(): LineBatch {
  if (!stdoutLines) {
    const fd = process.stdout.isTTY ? undefined : asyncFdWriter(1);
    const lines = batchedLines(fd ? fd.write : (chunk) => process.stdout.write(chunk));
    process.once('exit', () => {
      lines.flush();
      fd?.drainSync();
    });
    stdoutLines = lines;
  }
  return stdoutLines;
}

/**
 * A request's path as the log writes it: a calendar feed's address is its only key, so its token is masked, and so
 * is anything else as long as a token (32 or more base64url characters), wherever a mistyped address put it.
 */
export const loggedPath = (path: string) =>
  path.startsWith(CALENDAR_FEED_PREFIX)
    ? `${CALENDAR_FEED_PREFIX}[token]`
    : path.replace(/[A-Za-z0-9_-]{32,}/g, '[token]');
