import { createServer, type Server, type Socket } from 'node:net';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { chmodSync, unlinkSync } from 'node:fs';
import { mayChangeSession, settingPairs, type Session, type SharedBackend } from './shared-backend.ts';
import { statementLimitMs } from './statement-limit.ts';
import {
  cstring,
  encodeMessage,
  errorResponse,
  FEATURE_NOT_SUPPORTED,
  FrontendReader,
  int32,
  ProtocolError,
  readCString,
  TOO_MANY_CONNECTIONS,
  type FrontendMessage,
  type StartupPacket,
} from './wire-protocol.ts';

/** PostgreSQL's name for its socket inside the socket directory, so `psql -h DATA_DIR` and libpq find it. */
export const SOCKET_FILE = '.s.PGSQL.5432';

/**
 * Every client waits in one line for PGlite, so more would only wait longer; the bound keeps the memory clients
 * may hold (each up to MAX_BUFFERED_BYTES) bounded too.
 */
export const MAX_SOCKET_CLIENTS = 32;
/**
 * Clients past MAX_SOCKET_CLIENTS are told so once they send their startup packet, as PostgreSQL tells them; past
 * this many sockets in all, a connection is closed unanswered, so a flood of them holds no more memory.
 */
const MAX_SOCKETS = 2 * MAX_SOCKET_CLIENTS;
// How long a refused client has to read its last answer and close before its socket is dropped.
const CLOSE_GRACE_MS = 1000;

interface SocketOptions {
  /**
   * A client in a transaction holds the whole database, the server's requests included, so it may not sit idle:
   * after this long without a message it is disconnected and its transaction rolled back.
   */
  idleInTransactionMs: number;
  /** A client's statement_timeout unless it sets its own (statementLimitMs), which the backend's line enforces. */
  statementMs: number;
  /** CLOSE_GRACE_MS unless set: a test sets one longer than it waits, so that a wait for it fails unmistakably. */
  closeGraceMs?: number;
  onNotice(channel: string, payload: string): void;
  log(line: string): void;
}

export interface EmbeddedSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * Serves the embedded database on a Unix socket in `dir` (mode 0600: the folder's owner only, as trust
 * authentication on a socket is), speaking PostgreSQL's wire protocol: the CLI's pg, psql and pg_dump connect
 * as to a server. Statements reach PGlite unchanged, except that prepared-statement names are made unique per
 * connection, since every connection shares PGlite's one backend. `onNotice` hears the NOTIFYs that clients'
 * commits raise, which the server listens for; the clients themselves do not get them. Call it before the backend
 * has any other user.
 */
export async function serveEmbeddedSocket(
  backend: SharedBackend,
  dir: string,
  opts: SocketOptions,
): Promise<EmbeddedSocket> {
  const path = join(dir, SOCKET_FILE);
  const parameters = await serverParameters(backend);
  const connections = new Set<Connection>();
  const server = createServer((socket) => {
    const admitted = [...connections].filter((connection) => connection.admitted).length < MAX_SOCKET_CLIENTS;
    const connection = new Connection(socket, backend, parameters, opts, admitted);
    connections.add(connection);
    void connection.ended.then(() => connections.delete(connection));
  });
  // The caller holds the folder's lock, so a socket file here is a dead server's.
  try {
    unlinkSync(path);
  } catch {}
  server.maxConnections = MAX_SOCKETS;
  await listenPrivately(server, path);
  return {
    path,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.disconnect();
      await Promise.all([closed, ...[...connections].map((connection) => connection.ended)]);
    },
  };
}

// sockaddr_un's sun_path: 108 bytes on Linux, the last for the terminating zero.
const MAX_SOCKET_PATH = 107;

/**
 * Binds, then makes the socket its owner's alone (0600). Its folder, DATA_DIR, is owner-only already
 * (secureDataDir), so no one else reaches the socket in between; a umask would do it at bind, but the database's
 * worker thread may not set one.
 */
export async function listenPrivately(server: Server, path: string): Promise<void> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(
      `${path} is too long for a Unix socket (${MAX_SOCKET_PATH} bytes at most): choose a DATA_DIR with a shorter path`,
    );
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
}

/** Read without a turn: the socket is served before anything else uses the backend (embedded-worker.ts). */
async function serverParameters(backend: SharedBackend): Promise<[string, string][]> {
  const rows = await backend.query<'name' | 'setting'>(
    `select name, setting from pg_settings where name in ('server_version', 'server_encoding', 'client_encoding',
       'DateStyle', 'IntervalStyle', 'TimeZone', 'integer_datetimes', 'standard_conforming_strings')`,
  );
  return [...settingPairs(rows), ['is_superuser', 'on']];
}

class Connection {
  readonly id = randomInt(1, 2 ** 31 - 1);
  readonly ended: Promise<void>;
  private readonly reader = new FrontendReader();
  private work: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;
  private usedBackend = false;
  private changedSession = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  private undone: Promise<void> | undefined;
  private readonly session: Session;
  private readonly statements = new Set<string>();
  private startupOptions: string | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly backend: SharedBackend,
    private readonly parameters: [string, string][],
    private readonly opts: SocketOptions,
    readonly admitted: boolean,
  ) {
    this.session = backend.newSession();
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => {}); // 'close' follows, and cleans up
    this.ended = new Promise((resolve) => {
      socket.on('close', () => {
        clearTimeout(this.idleTimer);
        clearTimeout(this.closeTimer);
        void this.undo().then(resolve);
      });
    });
  }

  disconnect(): void {
    this.socket.destroy();
  }

  private get open(): boolean {
    return !this.socket.destroyed && !this.socket.writableEnded;
  }

  private receive(data: Buffer): void {
    clearTimeout(this.idleTimer);
    if (!this.open) return;
    // No more is read while the backend works and the client takes in its answers, so a client that sends without
    // reading is held back by its socket instead of filling the server's memory.
    this.socket.pause();
    this.work = this.work
      .then(async () => {
        this.reader.push(data);
        await this.drain();
        await this.answersTaken();
        if (this.open) this.socket.resume();
      })
      .catch((error) => this.refuse(error));
  }

  /** A malformed message or an unsupported request is answered with its error, anything else with 57P03; then the client goes. */
  private refuse(error: unknown): void {
    const { sqlState, text } =
      error instanceof ProtocolError
        ? { sqlState: error.sqlState, text: error.message }
        : { sqlState: '57P03', text: (error as Error).message };
    this.opts.log(`database socket: disconnecting a client: ${text}`);
    this.closeWith(errorResponse('FATAL', sqlState, text));
  }

  /**
   * Ends the server's side and reads on, dropping what comes (receive ignores it), until the client closes: a
   * client still writing when refused would otherwise meet a broken pipe and lose the answer unread.
   */
  private closeWith(answer?: Buffer): void {
    if (!this.open) return;
    if (answer) this.socket.end(answer);
    else this.socket.end();
    this.socket.resume();
    // A client that neither reads nor closes would keep its socket forever; its turn is given back at once.
    this.closeTimer = setTimeout(() => this.socket.destroy(), this.opts.closeGraceMs ?? CLOSE_GRACE_MS);
    void this.undo();
  }

  /** Once the work in flight is done, and only once: what the client left on the backend undone. */
  private undo(): Promise<void> {
    this.undone ??= this.work
      .then(() => this.cleanUp())
      .catch((error) => this.opts.log(`database socket: cleaning up: ${(error as Error).message}`));
    return this.undone;
  }

  /** Every whole packet and message buffered so far, the messages run on the backend as one batch. */
  private async drain(): Promise<void> {
    const batch: Buffer[] = [];
    let terminate = false;
    while (this.open && !terminate) {
      const packet = this.reader.next();
      if (!packet) break;
      if (packet.kind !== 'message') this.startUp(packet);
      else if (packet.type === 'X') terminate = true;
      else batch.push(this.rewrite(packet));
    }
    if (batch.length > 0) await this.run(Buffer.concat(batch));
    if (terminate) this.closeWith();
  }

  private startUp(packet: StartupPacket): void {
    switch (packet.kind) {
      case 'ssl-request':
      case 'gssenc-request':
        this.socket.write('N');
        return;
      case 'cancel-request':
        // PGlite runs one statement at a time to its end; there is nothing to cancel.
        this.closeWith();
        return;
      case 'startup':
        if (!this.admitted) throw new ProtocolError(TOO_MANY_CLIENTS, TOO_MANY_CONNECTIONS);
        this.greet(packet.parameters);
    }
  }

  private greet(startup: Map<string, string>): void {
    this.startupOptions = startup.get('options');
    const user = startup.get('user') || 'postgres';
    const parameters: [string, string][] = [
      ...this.parameters,
      ['session_authorization', user],
      ['application_name', startup.get('application_name') ?? ''],
    ];
    this.socket.write(
      Buffer.concat([
        encodeMessage('R', int32(0)),
        ...parameters.map(([name, value]) => encodeMessage('S', cstring(name), cstring(value))),
        encodeMessage('K', int32(this.id), int32(randomInt(2 ** 31 - 1))),
        encodeMessage('Z', Buffer.from('I')),
      ]),
    );
  }

  /** The message as the backend gets it, statement names made this connection's own; throws ProtocolError. */
  private rewrite({ type, body }: FrontendMessage): Buffer {
    switch (type) {
      case 'Q': {
        this.checkStatement(readCString(body, 0, 'Query').text);
        return encodeMessage(type, body);
      }
      case 'P': {
        const name = readCString(body, 0, 'Parse');
        this.checkStatement(readCString(body, name.next, 'Parse').text);
        if (name.text) this.statements.add(this.own(name.text));
        return encodeMessage(type, cstring(this.own(name.text)), body.subarray(name.next));
      }
      case 'B': {
        const portal = readCString(body, 0, 'Bind');
        const statement = readCString(body, portal.next, 'Bind');
        return encodeMessage(
          type,
          body.subarray(0, portal.next),
          cstring(this.own(statement.text)),
          body.subarray(statement.next),
        );
      }
      case 'D':
      case 'C': {
        if (body[0] !== 'S'.charCodeAt(0)) return encodeMessage(type, body);
        const name = readCString(body, 1, type === 'C' ? 'Close' : 'Describe');
        if (type === 'C') this.statements.delete(this.own(name.text));
        return encodeMessage(type, body.subarray(0, 1), cstring(this.own(name.text)));
      }
      default:
        return encodeMessage(type, body);
    }
  }

  private checkStatement(sql: string): void {
    if (copiesFromClient(sql)) throw new ProtocolError(COPY_FROM_STDIN_REFUSED, FEATURE_NOT_SUPPORTED);
    if (mayChangeSession(sql)) this.changedSession = true;
  }

  private own(statement: string): string {
    return statement ? `c${this.id}_${statement}` : '';
  }

  private async run(messages: Buffer): Promise<void> {
    if (!this.release) {
      this.release = await this.backend.takeTurn();
      this.usedBackend = true;
      await this.backend.resume(this.session);
    }
    const limitMs = statementLimitMs(this.session.settings, this.startupOptions, this.opts.statementMs);
    const output = await this.backend.exchange(messages, limitMs > 0 ? limitMs : undefined);
    const { forward, status } = this.routeNotices(output);
    if (this.open) this.socket.write(forward);
    if (status === 'I') {
      await this.backend.pause(this.session, this.changedSession);
      this.changedSession = false;
      this.release();
      this.release = undefined;
    } else {
      // Mid-transaction, or mid-way through an extended query until its Sync: the turn goes on.
      this.idleTimer = setTimeout(() => {
        const text = `terminating connection: idle for ${this.opts.idleInTransactionMs / 1000} s inside a transaction, while the Medora server waited for the database`;
        // Whether or not the client answers the end, its transaction must not hold the database any longer.
        this.closeWith(errorResponse('FATAL', '25P03', text));
      }, this.opts.idleInTransactionMs);
    }
  }

  /** Resolves once the client has taken in what was written to it, or has gone. */
  private answersTaken(): Promise<void> {
    if (!this.socket.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done).off('close', done);
        resolve();
      };
      this.socket.on('drain', done).on('close', done);
    });
  }

  /** Takes NotificationResponse messages out of the backend's answer; returns the rest and the last ReadyForQuery status. */
  private routeNotices(output: Buffer): { forward: Buffer; status: string | undefined } {
    const kept: Buffer[] = [];
    let status: string | undefined;
    let offset = 0;
    let keptFrom = 0;
    while (offset + 5 <= output.length) {
      const type = output[offset];
      const length = output.readInt32BE(offset + 1) + 1;
      if (type === 0x41 /* A */) {
        const channel = readCString(output, offset + 9, 'NotificationResponse');
        const payload = readCString(output, channel.next, 'NotificationResponse');
        this.opts.onNotice(channel.text, payload.text);
        kept.push(output.subarray(keptFrom, offset));
        keptFrom = offset + length;
      } else if (type === 0x5a /* Z */) {
        status = String.fromCharCode(output.readUInt8(offset + 5));
      }
      offset += length;
    }
    if (keptFrom === 0) return { forward: output, status };
    kept.push(output.subarray(keptFrom));
    return { forward: Buffer.concat(kept), status };
  }

  /** When the client has gone or been refused: whatever it left on the backend undone, so the server and other clients go on. */
  private async cleanUp(): Promise<void> {
    if (!this.usedBackend) return;
    const midway = this.release !== undefined;
    const release = this.release ?? (await this.backend.takeTurn());
    this.release = undefined;
    try {
      if (midway) await this.backend.exchange(RESYNC);
      await this.backend.end(this.session, this.statements, this.changedSession);
    } finally {
      release();
    }
  }
}

/**
 * Ends what a client left half-done: its ROLLBACK ends a transaction or an extended query not yet synced (and is
 * skipped after an extended query's error), and the Sync ends that skipping.
 */
const RESYNC = Buffer.concat([encodeMessage('Q', cstring('rollback')), encodeMessage('S')]);

// PostgreSQL's own words, which clients and operators know.
const TOO_MANY_CLIENTS = 'sorry, too many clients already';

const COPY_FROM_STDIN_REFUSED =
  'COPY FROM STDIN is not supported through the Medora server; use INSERT, or stop the server and use the folder';

/**
 * PGlite takes a statement and its input in one call: COPY FROM STDIN finds no rows there and stops the database
 * for good. Matching the words, comments between them included, may refuse a rare statement that only names them.
 */
function copiesFromClient(sql: string): boolean {
  return /\bcopy\b/i.test(sql) && /\bstdin\b/i.test(sql);
}
