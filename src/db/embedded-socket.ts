import { createServer, type Server, type Socket } from 'node:net';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { unlinkSync } from 'node:fs';
import { mayChangeSession, settingPairs, type Session, type SharedBackend } from './shared-backend.ts';

/** PostgreSQL's name for its socket inside the socket directory, so `psql -h DATA_DIR` and libpq find it. */
export const SOCKET_FILE = '.s.PGSQL.5432';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 3;

interface SocketOptions {
  /**
   * A client in a transaction holds the whole database, the server's requests included, so it may not sit idle:
   * after this long without a message it is disconnected and its transaction rolled back.
   */
  idleInTransactionMs: number;
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
 * commits raise, which the server listens for; the clients themselves do not get them.
 */
export async function serveEmbeddedSocket(backend: SharedBackend, dir: string, opts: SocketOptions): Promise<EmbeddedSocket> {
  const path = join(dir, SOCKET_FILE);
  const parameters = await serverParameters(backend);
  const connections = new Set<Connection>();
  const server = createServer((socket) => {
    const connection = new Connection(socket, backend, parameters, opts);
    connections.add(connection);
    void connection.ended.then(() => connections.delete(connection));
  });
  // The caller holds the folder's lock, so a socket file here is a dead server's.
  try {
    unlinkSync(path);
  } catch {}
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

/** Binds with umask 0177, so the socket is never reachable by others, not even between bind and chmod. */
export function listenPrivately(server: Server, path: string): Promise<void> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    return Promise.reject(new Error(`${path} is too long for a Unix socket (${MAX_SOCKET_PATH} bytes at most): choose a DATA_DIR with a shorter path`));
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
}

async function serverParameters(backend: SharedBackend): Promise<[string, string][]> {
  const release = await backend.takeTurn();
  try {
    const rows = await backend.query<'name' | 'setting'>(
      `select name, setting from pg_settings where name in ('server_version', 'server_encoding', 'client_encoding',
         'DateStyle', 'IntervalStyle', 'TimeZone', 'integer_datetimes', 'standard_conforming_strings')`,
    );
    return [...settingPairs(rows), ['is_superuser', 'on']];
  } finally {
    release();
  }
}

class Connection {
  readonly id = randomInt(1, 2 ** 31 - 1);
  readonly ended: Promise<void>;
  private buffer = Buffer.alloc(0);
  private started = false;
  private work: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;
  private changedSession = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly session: Session;
  private readonly statements = new Set<string>();

  constructor(
    private readonly socket: Socket,
    private readonly backend: SharedBackend,
    private readonly parameters: [string, string][],
    private readonly opts: SocketOptions,
  ) {
    this.session = backend.newSession();
    socket.on('data', (data) => {
      clearTimeout(this.idleTimer);
      this.buffer = Buffer.concat([this.buffer, data]);
      this.work = this.work.then(() => this.drain()).catch((error) => this.fail(error));
    });
    socket.on('error', () => {}); // 'close' follows, and cleans up
    this.ended = new Promise((resolve) => {
      socket.on('close', () => {
        clearTimeout(this.idleTimer);
        this.work = this.work.then(() => this.cleanUp()).catch((error) => opts.log(`database socket: cleaning up: ${(error as Error).message}`));
        void this.work.then(resolve);
      });
    });
  }

  disconnect(): void {
    this.socket.destroy();
  }

  private fail(error: unknown): void {
    this.opts.log(`database socket: ${(error as Error).message}`);
    this.socket.end(errorMessage('FATAL', '57P03', (error as Error).message));
    this.socket.destroySoon();
  }

  private async drain(): Promise<void> {
    while (!this.socket.destroyed) {
      if (!this.started) {
        if (!this.startUp()) return;
        continue;
      }
      const batch = this.takeMessages();
      if (!batch) return;
      if (batch.messages.length > 0) await this.run(batch.messages);
      if (batch.terminate) {
        this.socket.end();
        return;
      }
    }
  }

  /** Handles one startup-phase packet, if complete; false when more bytes are needed. */
  private startUp(): boolean {
    if (this.buffer.length < 8) return false;
    const length = this.buffer.readInt32BE(0);
    if (this.buffer.length < length) return false;
    const code = this.buffer.readInt32BE(4);
    const packet = this.buffer.subarray(8, length);
    this.buffer = this.buffer.subarray(length);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N');
    } else if (code === CANCEL_REQUEST) {
      // PGlite runs one statement at a time to its end; there is nothing to cancel.
      this.socket.end();
    } else if (code >> 16 === PROTOCOL_3) {
      // The startup packet is name, value, name, value …, each ending in a zero byte.
      const fields = packet.toString('utf8').split('\0');
      const parameter = (name: string) => (fields.includes(name) ? fields[fields.indexOf(name) + 1] : undefined);
      const user = parameter('user') || 'postgres';
      const applicationName = parameter('application_name') ?? '';
      const parameters: [string, string][] = [...this.parameters, ['session_authorization', user], ['application_name', applicationName]];
      this.socket.write(
        Buffer.concat([
          message('R', int32(0)),
          ...parameters.map(([name, value]) => message('S', cstring(name), cstring(value))),
          message('K', int32(this.id), int32(randomInt(2 ** 31 - 1))),
          message('Z', Buffer.from('I')),
        ]),
      );
      this.started = true;
    } else {
      this.socket.end(errorMessage('FATAL', '0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}`));
    }
    return true;
  }

  /** The complete messages buffered so far, statement names made this connection's own. */
  private takeMessages(): { messages: Buffer; terminate: boolean } | undefined {
    const parts: Buffer[] = [];
    let offset = 0;
    let terminate = false;
    while (this.buffer.length - offset >= 5) {
      const length = this.buffer.readInt32BE(offset + 1) + 1;
      if (this.buffer.length - offset < length) break;
      const type = String.fromCharCode(this.buffer.readUInt8(offset));
      const body = this.buffer.subarray(offset + 5, offset + length);
      offset += length;
      if (type === 'X') {
        terminate = true;
        break;
      }
      parts.push(this.rewrite(type, body));
    }
    if (offset === 0) return undefined;
    this.buffer = this.buffer.subarray(offset);
    return { messages: Buffer.concat(parts), terminate };
  }

  private rewrite(type: string, body: Buffer): Buffer {
    switch (type) {
      case 'Q': {
        if (mayChangeSession(readCString(body, 0).text)) this.changedSession = true;
        return message(type, body);
      }
      case 'P': {
        const name = readCString(body, 0);
        if (mayChangeSession(readCString(body, name.next).text)) this.changedSession = true;
        if (name.text) this.statements.add(this.own(name.text));
        return message(type, cstring(this.own(name.text)), body.subarray(name.next));
      }
      case 'B': {
        const portal = readCString(body, 0);
        const statement = readCString(body, portal.next);
        return message(type, body.subarray(0, portal.next), cstring(this.own(statement.text)), body.subarray(statement.next));
      }
      case 'D':
      case 'C': {
        if (body[0] !== 'S'.charCodeAt(0)) return message(type, body);
        const name = readCString(body, 1);
        if (type === 'C') this.statements.delete(this.own(name.text));
        return message(type, body.subarray(0, 1), cstring(this.own(name.text)));
      }
      default:
        return message(type, body);
    }
  }

  private own(statement: string): string {
    return statement ? `c${this.id}_${statement}` : '';
  }

  private async run(messages: Buffer): Promise<void> {
    if (!this.release) {
      this.release = await this.backend.takeTurn();
      await this.backend.resume(this.session);
    }
    const output = await this.backend.exchange(messages);
    const { forward, status } = this.routeNotices(output);
    if (!this.socket.destroyed) this.socket.write(forward);
    if (status === 'I') {
      await this.backend.pause(this.session, this.changedSession);
      this.changedSession = false;
      this.release();
      this.release = undefined;
    } else {
      // Mid-transaction, or mid-way through an extended query until its Sync: the turn goes on.
      this.idleTimer = setTimeout(() => {
        const text = `terminating connection: idle for ${this.opts.idleInTransactionMs / 1000} s inside a transaction, while the Medora server waited for the database`;
        this.socket.end(errorMessage('FATAL', '25P03', text));
        // Whether or not the client answers the end, its transaction must not hold the database any longer.
        this.socket.destroySoon();
      }, this.opts.idleInTransactionMs);
    }
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
        const channel = readCString(output, offset + 9);
        const payload = readCString(output, channel.next);
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

  private async cleanUp(): Promise<void> {
    const release = this.release ?? (await this.backend.takeTurn());
    this.release = undefined;
    try {
      await this.backend.end(this.session, this.statements, this.changedSession);
    } finally {
      release();
    }
  }
}

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function errorMessage(severity: string, code: string, text: string): Buffer {
  return message('E', Buffer.from('S'), cstring(severity), Buffer.from('V'), cstring(severity), Buffer.from('C'), cstring(code), Buffer.from('M'), cstring(text), Buffer.from([0]));
}

const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');

function readCString(buffer: Buffer, start: number): { text: string; next: number } {
  const end = buffer.indexOf(0, start);
  return { text: buffer.toString('utf8', start, end), next: end + 1 };
}
