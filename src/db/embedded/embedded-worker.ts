import type { MessagePort } from 'node:worker_threads';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { createPglite } from './pglite.ts';
import { SharedBackend, type TurnLine } from './shared-backend.ts';
import { serveEmbeddedSocket, type EmbeddedSocket } from './embedded-socket.ts';
import { dumpEmbedded } from './embedded-dump.ts';
import { toWire, type FromWorker, type Request, type ToWorker, type WorkerStart } from './embedded-thread-messages.ts';

/**
 * The embedded database's worker thread: PGlite, and the socket its other clients reach it by. It runs what the
 * server's thread asks, in the order asked; the server's thread keeps the line of turns (and its timeouts), so
 * statements here run one client at a time, and a long one blocks this thread only.
 */
export async function runEmbeddedWorker(port: MessagePort, start: WorkerStart): Promise<void> {
  const send = (message: FromWorker) => port.postMessage(message);
  const line = remoteLine(send);
  const listen = (pglite: PGlite, channel: string) =>
    pglite.listen(channel, (payload) => send({ kind: 'notice', channel, payload }));
  // Requests wait until PGlite is open and the socket served: the server's thread sends none to a worker before its
  // `ready`, except to one started again after a statement overran, while the server's requests go on.
  const requests: Request[] = [];
  let handle: ((request: Request) => void) | undefined;
  port.on('message', (message: ToWorker) => {
    if (message.op === 'turn') line.answer(message);
    else if (handle) handle(message);
    else requests.push(message);
  });
  let pglite: PGlite | undefined;
  let socket: EmbeddedSocket;
  let backend: SharedBackend;
  try {
    pglite = await createPglite(join(start.dataDir, 'pglite'));
    for (const channel of start.channels) await listen(pglite, channel);
    backend = new SharedBackend(pglite, line);
    socket = await serveEmbeddedSocket(backend, start.dataDir, {
      idleInTransactionMs: start.idleInTransactionMs,
      statementMs: start.statementMs,
      closeGraceMs: start.closeGraceMs,
      onNotice: (channel, payload) => send({ kind: 'notice', channel, payload }),
      log: (line) => send({ kind: 'log', line }),
    });
  } catch (error) {
    await pglite?.close().catch(() => {});
    send({ kind: 'failed', error: toWire(error) });
    port.close();
    return;
  }
  const open = pglite;
  const transactions = new Transactions(open);
  const run = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return (await transactions.on(request.tx).query(request.sql, request.params)).rows;
      case 'exec':
        await transactions.on(request.tx).exec(request.sql);
        return undefined;
      case 'begin':
        return transactions.begin(request.tx);
      case 'end':
        return transactions.end(request.tx, request.commit);
      case 'listen':
        await listen(open, request.channel);
        return undefined;
      case 'dump':
        return dumpEmbedded(backend);
      case 'close':
        await socket.close();
        await open.close();
        return undefined;
    }
  };
  handle = (request) =>
    void run(request).then(
      (result) => send({ kind: 'reply', id: request.id, result }),
      (error: unknown) => send({ kind: 'reply', id: request.id, error: toWire(error) }),
    );
  for (const request of requests.splice(0)) handle(request);
  send({ kind: 'ready' });
}

/** The server's transactions, each held open in PGlite's `transaction()` between the requests that name it. */
class Transactions {
  private readonly open = new Map<number, { tx: Transaction; end(commit: boolean): Promise<void> }>();

  constructor(private readonly pglite: PGlite) {}

  on(id: number | undefined): Pick<Transaction, 'query' | 'exec'> {
    if (id === undefined) return this.pglite;
    const open = this.open.get(id);
    if (!open) throw new Error(`transaction ${id} is not open`);
    return open.tx;
  }

  /** Resolves once the transaction has begun. */
  begin(id: number): Promise<void> {
    return new Promise((begun, failed) => {
      let decide!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (decide = resolve));
      const finished: Promise<void> = this.pglite
        .transaction(async (tx) => {
          this.open.set(id, {
            tx,
            end: (commit) => {
              decide(commit);
              return finished;
            },
          });
          begun();
          if (!(await decided)) await tx.rollback();
        })
        .finally(() => this.open.delete(id));
      // Before `begun`, BEGIN failed; after it, the failure is the commit's, which `end` answers.
      finished.catch(failed);
    });
  }

  /** Commits (or rolls back) the transaction; rejects with PGlite's error when the commit fails. */
  end(id: number, commit: boolean): Promise<void> {
    const open = this.open.get(id);
    if (!open) return Promise.reject(new Error(`transaction ${id} is not open`));
    return open.end(commit);
  }
}

/** Turns taken in the server's thread, where the line is; and the statements it watches. */
function remoteLine(
  send: (message: FromWorker) => void,
): TurnLine & { answer(message: Extract<ToWorker, { op: 'turn' }>): void } {
  const waiting = new Map<number, { granted(): void; refused(error: Error): void }>();
  let turns = 0;
  return {
    takeTurn: (timeoutMs) =>
      new Promise((resolve, reject) => {
        const turn = ++turns;
        waiting.set(turn, { granted: () => resolve(() => send({ kind: 'release', turn })), refused: reject });
        send({ kind: 'turn', turn, timeoutMs });
      }),
    watch: (limitMs) => {
      send({ kind: 'statement', limitMs });
      return () => send({ kind: 'ended' });
    },
    answer: ({ turn, granted, message }) => {
      const waiter = waiting.get(turn);
      waiting.delete(turn);
      if (granted) waiter?.granted();
      else waiter?.refused(new Error(message));
    },
  };
}
