import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { PgliteEngine } from './pglite.ts';
import type { Turns } from './turns.ts';
import { databaseUnavailable } from '../sql-errors.ts';
import { runEmbeddedWorker } from './embedded-worker.ts';
import {
  fromWire,
  WORKER_MARK,
  type FromWorker,
  type Request,
  type ToWorker,
  type WorkerStart,
} from './embedded-thread-messages.ts';

// The worker runs this very module (see spawn): the bundled CLI has no file of its own for it.
if (!isMainThread && parentPort && (workerData as Partial<WorkerStart> | null)?.mark === WORKER_MARK) {
  void runEmbeddedWorker(parentPort, workerData as WorkerStart);
}

/** PGlite on a worker thread, so no statement of it ever blocks the server's thread: its HTTP answers go on. */
export interface EmbeddedThread extends PgliteEngine {
  /** A gzipped SQL dump (dumpEmbedded), made on the database's thread. */
  backup(): Promise<Buffer>;
}

export interface EmbeddedThreadOptions {
  dataDir: string;
  /** The line the server's own statements wait in; socket clients and backups on the worker wait in it too. */
  turns: Turns;
  statementMs: number;
  idleInTransactionMs: number;
  closeGraceMs?: number;
  log(line: string): void;
}

/**
 * Opens the embedded database of `dataDir` on a worker thread, serving its socket there (embedded-worker.ts).
 * WebAssembly cannot be interrupted, so a socket client's statement still running past its statement_timeout is
 * ended the only way there is: the worker is terminated and started again, which PostgreSQL's recovery makes as
 * safe as a crash. Every socket client is disconnected then, and the server's requests under way fail with 503.
 */
export async function startEmbeddedThread(opts: EmbeddedThreadOptions): Promise<EmbeddedThread> {
  const thread = new DatabaseThread(opts);
  await thread.start();
  return thread;
}

type Pending = { resolve(result: unknown): void; reject(error: Error): void };

class DatabaseThread implements EmbeddedThread {
  private worker: Worker | undefined;
  private generation = 0;
  private requests = 0;
  private transactions = 0;
  private readonly pending = new Map<number, Pending>();
  /** Turns the worker's clients hold, ended for them if the worker goes. */
  private readonly held = new Map<number, () => void>();
  private readonly listeners = new Map<string, ((payload: string) => void)[]>();
  private watchdog: NodeJS.Timeout | undefined;
  private closing = false;
  private broken = false;

  constructor(private readonly opts: EmbeddedThreadOptions) {}

  /** Resolves once the worker has opened PGlite and listens on the socket; rejects with why it could not. */
  start(): Promise<void> {
    const generation = ++this.generation;
    const start: WorkerStart = {
      mark: WORKER_MARK,
      dataDir: this.opts.dataDir,
      channels: [...this.listeners.keys()],
      statementMs: this.opts.statementMs,
      idleInTransactionMs: this.opts.idleInTransactionMs,
      closeGraceMs: this.opts.closeGraceMs,
    };
    const worker = spawn(start);
    this.worker = worker;
    let opened = false;
    return new Promise((ready, failed) => {
      worker.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') {
          opened = true;
          ready();
        } else if (message.kind === 'failed') failed(fromWire(message.error));
        else this.receive(message, generation);
      });
      worker.on('error', (error) => this.opts.log(`embedded database: its thread failed: ${error.message}`));
      worker.on('exit', () => {
        failed(new Error('the embedded database stopped while opening'));
        this.exited(generation, opened);
      });
    });
  }

  query<T>(sql: string, params?: unknown[], tx?: number): Promise<{ rows: T[] }> {
    return this.request<T[]>((id) => ({ op: 'query', id, sql, params, tx })).then((rows) => ({ rows }));
  }

  exec(sql: string, tx?: number): Promise<unknown> {
    return this.request((id) => ({ op: 'exec', id, sql, tx }));
  }

  async transaction<T>(fn: (tx: Pick<PgliteEngine, 'query' | 'exec'>) => Promise<T>): Promise<T> {
    const tx = ++this.transactions;
    const generation = this.generation;
    // A restarted worker knows nothing of this transaction, which ended with the one before.
    const within = <R>(send: () => Promise<R>) =>
      this.generation === generation ? send() : Promise.reject(databaseUnavailable());
    await this.request((id) => ({ op: 'begin', id, tx }));
    let result: T;
    try {
      result = await fn({
        query: (sql, params) => within(() => this.query(sql, params, tx)),
        exec: (sql) => within(() => this.exec(sql, tx)),
      });
    } catch (error) {
      await within(() => this.request((id) => ({ op: 'end', id, tx, commit: false }))).catch(() => {});
      throw error;
    }
    await within(() => this.request((id) => ({ op: 'end', id, tx, commit: true })));
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<unknown> {
    const listening = this.listeners.get(channel);
    this.listeners.set(channel, [...(listening ?? []), callback]);
    if (!listening) await this.request((id) => ({ op: 'listen', id, channel }));
    return undefined;
  }

  async backup(): Promise<Buffer> {
    const dump = await this.request<Uint8Array>((id) => ({ op: 'dump', id }));
    return Buffer.from(dump.buffer, dump.byteOffset, dump.byteLength);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.watchdog);
    await this.request((id) => ({ op: 'close', id })).catch((error: Error) =>
      this.opts.log(`embedded database: closing: ${error.message}`),
    );
    await this.worker?.terminate();
  }

  private request<T = unknown>(make: (id: number) => Request): Promise<T> {
    if (this.broken || !this.worker) return Promise.reject(databaseUnavailable());
    const message = make(++this.requests);
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve: (result) => resolve(result as T), reject });
      this.post(worker, message);
    });
  }

  private post(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private receive(message: FromWorker, generation: number): void {
    const worker = this.worker;
    if (generation !== this.generation || !worker) return;
    switch (message.kind) {
      case 'reply': {
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) pending?.reject(fromWire(message.error));
        else pending?.resolve(message.result);
        return;
      }
      case 'turn': {
        const { turn } = message;
        this.opts.turns.take(message.timeoutMs).then(
          (done) => {
            if (generation !== this.generation) return done();
            this.held.set(turn, done);
            this.post(worker, { op: 'turn', turn, granted: true });
          },
          (error: Error) => this.post(worker, { op: 'turn', turn, granted: false, message: error.message }),
        );
        return;
      }
      case 'release':
        this.held.get(message.turn)?.();
        this.held.delete(message.turn);
        return;
      case 'statement':
        clearTimeout(this.watchdog);
        this.watchdog = setTimeout(() => this.overran(worker, message.limitMs), message.limitMs);
        return;
      case 'ended':
        clearTimeout(this.watchdog);
        return;
      case 'notice':
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      case 'log':
        this.opts.log(message.line);
        return;
    }
  }

  private overran(worker: Worker, limitMs: number): void {
    this.opts.log(
      `database socket: a client's statement ran past its statement_timeout (${limitMs} ms); restarting the embedded database to end it`,
    );
    void worker.terminate();
  }

  /**
   * The worker is gone: what waited on it fails, its turns end, and unless the server is closing, a new one
   * starts — when this one had opened the database: a worker that could not is its start's failure.
   */
  private exited(generation: number, opened: boolean): void {
    if (generation !== this.generation) return;
    clearTimeout(this.watchdog);
    for (const pending of this.pending.values()) pending.reject(databaseUnavailable());
    this.pending.clear();
    for (const done of this.held.values()) done();
    this.held.clear();
    if (this.closing || !opened) {
      this.broken = true;
      return;
    }
    const started = performance.now();
    this.start().then(
      () => this.opts.log(`embedded database: started again in ${Math.round(performance.now() - started)} ms`),
      (error: Error) => {
        this.broken = true;
        this.opts.log(
          `embedded database: cannot start again, every request fails until the server restarts: ${error.message}`,
        );
      },
    );
  }
}

/**
 * The worker runs this module. Under tsx (tests, `node --import tsx`) a worker does not inherit the loader for
 * TypeScript, so it loads the module through tsx's API.
 */
function spawn(start: WorkerStart): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL(self), { workerData: start });
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)}))`;
  return new Worker(load, { eval: true, workerData: start });
}
