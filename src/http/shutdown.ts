import type { Server } from 'node:http';

/** What a shutdown needs of a server: the requests still being handled, and how to cancel their statements. */
export interface ServerInFlight {
  handling: Set<Promise<void>>;
  interrupt(): Promise<void>;
}

const inFlight = new WeakMap<Server, ServerInFlight>();

/** Registers what `closeGracefully` waits for and interrupts on `server`. */
export function trackInFlight(server: Server, tracked: ServerInFlight): void {
  inFlight.set(server, tracked);
}

/**
 * Stops accepting and lets the requests in flight finish for `graceMs`. Past that, the database is interrupted
 * first — their statements cancelled, nothing of theirs commits — and only then are their sockets closed, so no
 * write commits after its client saw the connection reset. Resolves within grace + 1.2 s, whatever the database
 * does.
 */
export async function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  const tracked = inFlight.get(server);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection becomes idle when its last request is answered; it is closed then.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  const handling = tracked?.handling ?? new Set();
  // A request may still arrive on a keep-alive connection until it is closed, so wait until none is left.
  const drained = async () => {
    while (handling.size > 0) await Promise.allSettled([...handling]);
  };
  try {
    if (!(await within(graceMs, drained()))) {
      await within(500, tracked?.interrupt() ?? Promise.resolve());
      server.closeAllConnections();
      await within(500, drained());
    }
    await within(200, closed);
  } finally {
    clearInterval(closeIdle);
  }
}

/** Whether `work` settled within `ms`; it is not waited for past that. */
async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
