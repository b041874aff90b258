/** What the server's thread and the embedded database's worker thread (embedded-thread.ts) say to each other. */

/** What the worker is started with. */
export interface WorkerStart {
  mark: typeof WORKER_MARK;
  dataDir: string;
  /** Channels the server listens on, LISTENed again before a restarted worker lets any client in. */
  channels: string[];
  /** The server's statement timeout: a socket client's limit unless it sets its own. */
  statementMs: number;
  idleInTransactionMs: number;
  /** How long a refused socket client has to close (embedded-socket.ts); its default unless a test sets it. */
  closeGraceMs?: number;
}

export const WORKER_MARK = 'medora-embedded-database';

/** A request of the server's; `tx` names a transaction begun with `begin`. */
export type Request =
  | { op: 'query'; id: number; sql: string; params?: unknown[]; tx?: number }
  | { op: 'exec'; id: number; sql: string; tx?: number }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string }
  | { op: 'dump'; id: number }
  | { op: 'close'; id: number };

/** To the worker: a request, or the answer to a turn it asked for. */
export type ToWorker = Request | { op: 'turn'; turn: number; granted: boolean; message?: string };

/** To the server's thread. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WireError }
  | { kind: 'reply'; id: number; result?: unknown; error?: WireError }
  | { kind: 'turn'; turn: number; timeoutMs: number }
  | { kind: 'release'; turn: number }
  /** A socket client's statement starts, to be over within `limitMs`; `ended` follows when it is. */
  | { kind: 'statement'; limitMs: number }
  | { kind: 'ended' }
  | { kind: 'notice'; channel: string; payload: string }
  | { kind: 'log'; line: string };

/** An error as it crosses threads: its message and the plain fields (code, constraint …) adapters read. */
export interface WireError {
  message: string;
  fields: Record<string, string | number>;
}

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(error))
    if (typeof value === 'string' || typeof value === 'number') fields[name] = value;
  return { message: error.message, fields };
}

export function fromWire(error: WireError): Error {
  return Object.assign(new Error(error.message), error.fields);
}
