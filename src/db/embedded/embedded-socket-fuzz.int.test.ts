import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { serveEmbedded, type EmbeddedServer } from './embedded.ts';
import { SOCKET_FILE } from './embedded-socket.ts';
import { DEFAULT_TIMEOUTS } from '../timeouts.ts';
import {
  CANCEL_REQUEST_CODE,
  cstring,
  encodeMessage,
  FEATURE_NOT_SUPPORTED,
  GSSENC_REQUEST_CODE,
  int32,
  MAX_MESSAGE_BYTES,
  MAX_SMALL_MESSAGE_BYTES,
  MAX_STARTUP_PACKET_BYTES,
  PROTOCOL_3_0,
  PROTOCOL_VIOLATION,
  SSL_REQUEST_CODE,
} from './wire-protocol.ts';
import { createMedoraServer } from '../../http/server.ts';
import { closeGracefully } from '../../http/shutdown.ts';
import { makeTestApp } from '../../testing/test-app.ts';
import { systemClock } from '../../domain/shared/clock.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';
import { at, only } from '../../testing/assert.ts';
import { within } from '../../testing/within.ts';

// Sessions at once: the backend takes them one at a time, but their sockets and startups overlap.
const SESSIONS_AT_ONCE = 8;
// FUZZ_RUNS=10000 (or more) for a longer run.
const SESSIONS = Math.ceil(Number(process.env.FUZZ_RUNS ?? 1000) / SESSIONS_AT_ONCE) * SESSIONS_AT_ONCE;
// A refused client is answered and closed at once, liveness answers at once: milliseconds on a quiet machine, most
// of a second beside two CPU hogs on a shared one (measured: 0.8 s). These bound "at once" at ten times that.
const REFUSED_WITHIN_MS = 10_000;
const LIVE_WITHIN_MS = 10_000;
// Readiness asks the database within a second (app.ts's READY_WITHIN_MS), then answers 200 or 503: ten times that.
const READY_WITHIN_MS = 10_000;
// PGlite's heap grows to its working size once and stays; the sockets' buffers must come and go.
const RSS_GROWTH_BOUND = 256 * 1024 * 1024;
// The refused client's idle limit, which a server that rolled back at once never reaches: ten times the 3 s that
// bound "at once" before, so that a busy machine's slow rollback is not taken for a wait on the limit.
const IDLE_IN_TRANSACTION_MS = 30_000;
// How long a refused client that does not close keeps its socket: here far past the bound the server's statements are
// held to (IDLE_IN_TRANSACTION_MS), so that a statement waiting for the socket to be dropped fails unmistakably.
const CLOSE_GRACE_MS = 20 * IDLE_IN_TRANSACTION_MS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const query = (sql: string) => encodeMessage('Q', cstring(sql));
const SYNC = encodeMessage('S');
const packet = (length: number, code: number, ...rest: Buffer[]) =>
  Buffer.concat([int32(length), int32(code), ...rest]);
const SSL_REQUEST = packet(8, SSL_REQUEST_CODE);
const STARTUP = (() => {
  const body = Buffer.concat([
    cstring('user'),
    cstring('postgres'),
    cstring('database'),
    cstring('postgres'),
    Buffer.from([0]),
  ]);
  return packet(8 + body.length, PROTOCOL_3_0, body);
})();
// Leaves an open transaction holding a row the server must roll back; answered with two ReadyForQuery.
const TRANSACTION_WITH_A_ROW = Buffer.concat([query('begin'), query("insert into t (v) values ('fuzz')")]);
const header = (type: string, length: number) => Buffer.concat([Buffer.from(type, 'latin1'), int32(length)]);
const extended = (statement: string, sql: string) =>
  Buffer.concat([
    encodeMessage('P', cstring(statement), cstring(sql), Buffer.from([0, 0])),
    encodeMessage('B', cstring(''), cstring(statement), Buffer.from([0, 0, 0, 0, 0, 0])),
    encodeMessage('E', cstring(''), int32(0)),
  ]);

/** A raw client of the socket: what it sent, and everything the server answered until it closed. */
class RawClient {
  private readonly chunks: Buffer[] = [];
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data) => {
      this.chunks.push(data);
      this.wake();
    });
    socket.on('error', () => {}); // a reset after the server's refusal
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.wake();
        resolve();
      }),
    );
  }

  /** `halfOpen`: the client does not close when the server does, as a hung client would not. */
  static open(path: string, { halfOpen = false } = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ path, allowHalfOpen: halfOpen });
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  get received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  send(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** Waits until what came back satisfies `done`, or the socket closed, or `ms` passed; says whether it did. */
  async until(done: (received: Buffer) => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!done(this.received)) {
      if (this.socket.destroyed || Date.now() >= deadline) return done(this.received);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  /** Whether the server closed the connection within `ms`. */
  closedWithin(ms: number): Promise<boolean> {
    return Promise.race([this.closed.then(() => true), sleep(ms).then(() => false)]);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}

interface BackendMessage {
  type: string;
  body: Buffer;
}

/** The server's messages in `bytes`, after the one-byte answers to SSLRequests; an incomplete tail is left out. */
function backendMessages(bytes: Buffer, negotiations = 0): BackendMessage[] {
  const messages: BackendMessage[] = [];
  let offset = negotiations;
  while (offset + 5 <= bytes.length) {
    const end = offset + 1 + bytes.readInt32BE(offset + 1);
    if (end > bytes.length) break;
    messages.push({ type: String.fromCharCode(bytes.readUInt8(offset)), body: bytes.subarray(offset + 5, end) });
    offset = end;
  }
  return messages;
}

/** An ErrorResponse's fields by their one-letter code: S severity, C SQLSTATE, M message. */
function errorFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  for (let offset = 0; offset < body.length && body[offset] !== 0; ) {
    const end = body.indexOf(0, offset + 1);
    fields.set(String.fromCharCode(body.readUInt8(offset)), body.toString('utf8', offset + 1, end));
    offset = end + 1;
  }
  return fields;
}

const readyCount = (bytes: Buffer, negotiations = 0) =>
  backendMessages(bytes, negotiations).filter((message) => message.type === 'Z').length;

/** The last message the server sent, as the refusal it should be. */
function refusalIn(bytes: Buffer, negotiations: number): { severity?: string; sqlState?: string; message?: string } {
  const last = backendMessages(bytes, negotiations).at(-1);
  if (last?.type !== 'E') return {};
  const fields = errorFields(last.body);
  return { severity: fields.get('S'), sqlState: fields.get('C'), message: fields.get('M') };
}

/**
 * One generated session: `opening` well formed (perhaps an SSLRequest, the startup packet and statements that leave
 * state on the shared backend: an open transaction with a row, a failed one, settings, prepared statements, an
 * extended query never synced), then `malformed`, which the server must refuse with `sqlState`.
 */
interface Session {
  opening: Buffer;
  /** ReadyForQuery messages the opening's answer holds. */
  openingReady: number;
  negotiations: number;
  /** Whether the malformed part waits for the opening's answer, or goes with it in one write. */
  separate: boolean;
  malformed: Buffer;
  sqlState: string;
  label: string;
}

const FRONTEND_TYPES = [...'QPBFdDECHScfX'];
const SMALL_TYPES = [...'DECHScfX'];
const anyBytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((bytes) => Buffer.from(bytes));
const nonZeroBytes = (maxLength: number) =>
  fc.uint8Array({ min: 1, minLength: 1, maxLength }).map((bytes) => Buffer.from(bytes));
const int32Value = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

/** Statements that leave something on the backend for the server to undo when their client is refused. */
const prefixes: fc.Arbitrary<{ bytes: Buffer; ready: number; label: string }> = fc.constantFrom(
  { bytes: Buffer.alloc(0), ready: 0, label: 'nothing' },
  { bytes: query('select 1'), ready: 1, label: 'a select' },
  { bytes: TRANSACTION_WITH_A_ROW, ready: 2, label: 'a transaction with a row' },
  { bytes: Buffer.concat([query('begin'), query('selec 1')]), ready: 2, label: 'a failed transaction' },
  { bytes: query("set search_path = ''"), ready: 1, label: 'a setting' },
  { bytes: query('prepare fuzz_sql as select 1'), ready: 1, label: 'a prepared statement' },
  {
    bytes: extended('fuzz_named', "insert into t (v) values ('fuzz')"),
    ready: 0,
    label: 'an extended query not synced',
  },
  {
    bytes: Buffer.concat([query('begin'), extended('', 'selec 1')]),
    ready: 1,
    label: 'an extended query failing in a transaction',
  },
);

const startupPhaseRefusals: fc.Arbitrary<{ malformed: Buffer; sqlState: string; label: string }> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.integer({ min: -(2 ** 31), max: 7 }),
        fc.integer({ min: MAX_STARTUP_PACKET_BYTES + 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(0, -1),
      ),
      fc.oneof(fc.constantFrom(SSL_REQUEST_CODE, GSSENC_REQUEST_CODE, CANCEL_REQUEST_CODE, PROTOCOL_3_0), int32Value),
      anyBytes(24),
    )
    .map(([length, code, rest]) => ({
      malformed: packet(length, code, rest),
      sqlState: PROTOCOL_VIOLATION,
      label: `startup length ${length}`,
    })),
  fc
    .tuple(fc.constantFrom(SSL_REQUEST_CODE, GSSENC_REQUEST_CODE), fc.integer({ min: 9, max: 64 }))
    .map(([code, length]) => ({
      malformed: packet(length, code, Buffer.alloc(length - 8)),
      sqlState: PROTOCOL_VIOLATION,
      label: `negotiation of length ${length}`,
    })),
  fc.oneof(fc.integer({ min: 8, max: 15 }), fc.integer({ min: 269, max: 600 })).map((length) => ({
    malformed: packet(length, CANCEL_REQUEST_CODE, Buffer.alloc(length - 8)),
    sqlState: PROTOCOL_VIOLATION,
    label: `cancel of length ${length}`,
  })),
  fc
    .integer({ min: 0, max: 0xffff })
    .filter((minor) => minor < 5678 || minor > 5680)
    .map((minor) => ({
      malformed: packet(8, (1234 << 16) | minor),
      sqlState: PROTOCOL_VIOLATION,
      label: `request code 1234.${minor}`,
    })),
  fc
    .tuple(
      fc.integer({ min: 0, max: 0xffff }).filter((major) => major !== 3 && major !== 1234),
      fc.integer({ min: 0, max: 0xffff }),
    )
    .map(([major, minor]) => ({
      malformed: packet(8, (major << 16) | minor),
      sqlState: FEATURE_NOT_SUPPORTED,
      label: `protocol ${major}.${minor}`,
    })),
  fc
    .tuple(
      fc.array(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.stringMatching(/^[a-z0-9]{0,12}$/)), { maxLength: 3 }),
      fc.boolean(),
      nonZeroBytes(12),
    )
    .map(([pairs, dropTerminator, junk]) => {
      const fields = Buffer.concat(pairs.flatMap(([name, value]) => [cstring(name), cstring(value)]));
      const body = dropTerminator ? Buffer.concat([fields, junk]) : Buffer.concat([fields, Buffer.from([0]), junk]);
      return {
        malformed: packet(8 + body.length, PROTOCOL_3_0, body),
        sqlState: PROTOCOL_VIOLATION,
        label: 'startup parameters without their terminator',
      };
    }),
);

const messagePhaseRefusals: fc.Arbitrary<{ malformed: Buffer; sqlState: string; label: string }> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 255 }).filter((byte) => !FRONTEND_TYPES.includes(String.fromCharCode(byte))),
      anyBytes(32),
    )
    .map(([byte, rest]) => ({
      malformed: Buffer.concat([Buffer.from([byte]), rest]),
      sqlState: PROTOCOL_VIOLATION,
      label: `message type ${byte}`,
    })),
  fc
    .tuple(
      fc.constantFrom(...FRONTEND_TYPES),
      fc.oneof(fc.integer({ min: -(2 ** 31), max: 3 }), fc.constantFrom(-1, 0)),
      anyBytes(32),
    )
    .map(([type, length, rest]) => ({
      malformed: Buffer.concat([header(type, length), rest]),
      sqlState: PROTOCOL_VIOLATION,
      label: `"${type}" of length ${length}`,
    })),
  fc
    .tuple(fc.constantFrom(...SMALL_TYPES), fc.integer({ min: MAX_SMALL_MESSAGE_BYTES + 1, max: 2 ** 31 - 1 }))
    .map(([type, length]) => ({
      malformed: header(type, length),
      sqlState: PROTOCOL_VIOLATION,
      label: `"${type}" of length ${length}`,
    })),
  fc
    .tuple(fc.constantFrom('Q', 'P', 'B', 'F', 'd'), fc.integer({ min: MAX_MESSAGE_BYTES + 1, max: 2 ** 31 - 1 }))
    .map(([type, length]) => ({
      malformed: header(type, length),
      sqlState: PROTOCOL_VIOLATION,
      label: `"${type}" of length ${length}`,
    })),
  fc.integer({ min: 1, max: 70_000 }).map((length) => ({
    malformed: Buffer.alloc(length),
    sqlState: PROTOCOL_VIOLATION,
    label: `${length} zero bytes`,
  })),
  fc.tuple(fc.constantFrom('Q', 'P', 'B', 'D', 'C'), nonZeroBytes(40)).map(([type, text]) => {
    // Each lacks the zero byte that ends a name or statement the server reads: D and C name a statement with S.
    const body =
      type === 'Q'
        ? text
        : type === 'D' || type === 'C'
          ? Buffer.concat([Buffer.from('S'), text])
          : Buffer.concat([cstring(''), text]);
    return {
      malformed: encodeMessage(type, body),
      sqlState: PROTOCOL_VIOLATION,
      label: `"${type}" without its string`,
    };
  }),
  fc
    .constantFrom('copy t from stdin', 'COPY t (v) FROM STDIN', 'copy t from /* x */ stdin with (format csv)')
    .chain((sql) =>
      fc.constantFrom(
        query(sql),
        Buffer.concat([encodeMessage('P', cstring(''), cstring(sql), Buffer.from([0, 0])), SYNC]),
      ),
    )
    .map((malformed) => ({ malformed, sqlState: FEATURE_NOT_SUPPORTED, label: 'COPY FROM STDIN' })),
);

const startupPhaseSessions: fc.Arbitrary<Session> = fc
  .tuple(fc.boolean(), startupPhaseRefusals)
  .map(([ssl, refusal]) => ({
    opening: ssl ? SSL_REQUEST : Buffer.alloc(0),
    openingReady: 0,
    negotiations: ssl ? 1 : 0,
    separate: false,
    ...refusal,
  }));

const messagePhaseSessions: fc.Arbitrary<Session> = fc
  .tuple(fc.boolean(), prefixes, fc.boolean(), messagePhaseRefusals)
  .map(([ssl, prefix, separate, refusal]) => ({
    opening: Buffer.concat([ssl ? SSL_REQUEST : Buffer.alloc(0), STARTUP, prefix.bytes]),
    openingReady: 1 + prefix.ready,
    negotiations: ssl ? 1 : 0,
    separate,
    ...refusal,
    label: `${refusal.label} after ${prefix.label}`,
  }));

const SSL_REQUEST_TWICE: Session = {
  opening: SSL_REQUEST,
  openingReady: 0,
  negotiations: 1,
  separate: true,
  malformed: SSL_REQUEST,
  sqlState: PROTOCOL_VIOLATION,
  label: 'SSLRequest twice',
};

const sessions: fc.Arbitrary<Session> = fc.oneof(
  { weight: 2, arbitrary: startupPhaseSessions },
  { weight: 1, arbitrary: fc.constant(SSL_REQUEST_TWICE) },
  { weight: 6, arbitrary: messagePhaseSessions },
);

/** Plays one session; says what went wrong, if anything. */
async function play(path: string, session: Session): Promise<string | undefined> {
  const client = await RawClient.open(path);
  try {
    if (session.separate) {
      client.send(session.opening);
      const opened = (bytes: Buffer) =>
        bytes.length >= session.negotiations && readyCount(bytes, session.negotiations) >= session.openingReady;
      const answered = await client.until(opened, REFUSED_WITHIN_MS);
      if (!answered) return `no answer to the opening of ${session.label}`;
      client.send(session.malformed);
    } else {
      client.send(Buffer.concat([session.opening, session.malformed]));
    }
    if (!(await client.closedWithin(REFUSED_WITHIN_MS)))
      return `not closed within ${REFUSED_WITHIN_MS} ms: ${session.label}`;
    const refusal = refusalIn(client.received, session.negotiations);
    if (refusal.severity !== 'FATAL' || refusal.sqlState !== session.sqlState) {
      return `${session.label}: answered ${JSON.stringify(refusal)}, expected FATAL ${session.sqlState}`;
    }
    return undefined;
  } finally {
    client.destroy();
  }
}

interface Health {
  checks: number;
  failures: string[];
  slowestLiveMs: number;
  slowestReadyMs: number;
  readyOk: number;
  peakRss: number;
}

/** Asks the HTTP server for liveness and readiness, and samples memory, until stopped. */
function watchHealth(url: string): { stop(): Promise<Health> } {
  const health: Health = { checks: 0, failures: [], slowestLiveMs: 0, slowestReadyMs: 0, readyOk: 0, peakRss: 0 };
  let watching = true;
  const timed = async (path: string, withinMs: number) => {
    const started = Date.now();
    const res = await fetch(url + path, { signal: AbortSignal.timeout(withinMs) });
    await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - started };
  };
  const loop = (async () => {
    while (watching) {
      health.checks++;
      health.peakRss = Math.max(health.peakRss, process.memoryUsage().rss);
      try {
        const live = await timed('/api/health/live', LIVE_WITHIN_MS);
        health.slowestLiveMs = Math.max(health.slowestLiveMs, live.ms);
        if (live.status !== 200) health.failures.push(`live answered ${live.status}`);
        const ready = await timed('/api/health/ready', READY_WITHIN_MS);
        health.slowestReadyMs = Math.max(health.slowestReadyMs, ready.ms);
        if (ready.status === 200) health.readyOk++;
        else if (ready.status !== 503) health.failures.push(`ready answered ${ready.status}`);
      } catch (error) {
        health.failures.push(`no answer: ${(error as Error).message}`);
      }
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await loop;
      return health;
    },
  };
}

describe('the embedded database socket, given malformed messages', () => {
  let dir: string;
  let path: string;
  let removeDir: () => Promise<void>;
  let server: EmbeddedServer;
  let http: Server;
  let url: string;
  let refusals = 0;

  /** What the server's own statements see: its transaction state, its settings and anything a client left behind. */
  const assertServerClean = async () => {
    assert.deepEqual(
      await server.db.query(`select v from t where v = 'fuzz'`),
      [],
      'no refused client committed its row',
    );
    assert.equal(only(await server.db.query<{ search_path: string }>('show search_path')).search_path, 'public');
    assert.deepEqual(await server.db.query(`select name from pg_prepared_statements where name like '%fuzz%'`), []);
  };
  const assertWellFormedClientServed = async () => {
    const client = new pg.Client({ host: dir, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`insert into t (v) values ('well formed')`);
      await client.query('commit');
      assert.deepEqual(
        (await client.query<{ n: number }>(`select count(*)::int as n from t where v = 'well formed'`)).rows,
        [{ n: 1 }],
      );
      await client.query(`delete from t where v = 'well formed'`);
    } finally {
      await client.end();
    }
  };
  const refusedAtOnce = async (bytes: Buffer[], sqlState: string, negotiations = 0): Promise<string | undefined> => {
    const client = await RawClient.open(path);
    try {
      for (const part of bytes) {
        client.send(part);
        await sleep(20);
      }
      assert.ok(await client.closedWithin(REFUSED_WITHIN_MS), 'the server closes the connection');
      const refusal = refusalIn(client.received, negotiations);
      assert.equal(refusal.severity, 'FATAL');
      assert.equal(refusal.sqlState, sqlState);
      return refusal.message;
    } finally {
      client.destroy();
    }
  };

  before(async () => {
    ({ dataDir: dir, remove: removeDir } = await embeddedDataDir());
    path = join(dir, SOCKET_FILE);
    server = await serveEmbedded(
      dir,
      { ...DEFAULT_TIMEOUTS, idleInTransactionMs: IDLE_IN_TRANSACTION_MS },
      (line) => {
        if (line.includes('disconnecting a client')) refusals++;
      },
      { closeGraceMs: CLOSE_GRACE_MS },
    );
    await server.db.exec('create table t (id integer generated always as identity primary key, v text not null)');
    http = createMedoraServer(makeTestApp(server.db, { clock: systemClock }), { log: () => {} });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  after(async () => {
    if (http) await closeGracefully(http, 1000);
    await server?.db.close();
    await removeDir?.();
  });

  it('refuses a startup packet of length 0 with the SSLRequest code, and goes on', async () => {
    const message = await refusedAtOnce([packet(0, SSL_REQUEST_CODE)], PROTOCOL_VIOLATION);
    assert.match(message ?? '', /invalid length of startup packet: 0/);
    assert.equal((await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(LIVE_WITHIN_MS) })).status, 200);
    await assertWellFormedClientServed();
  });

  it('refuses a Query with length -1, and goes on', async () => {
    const message = await refusedAtOnce([STARTUP, header('Q', -1)], PROTOCOL_VIOLATION);
    assert.match(message ?? '', /invalid length of message "Q": -1/);
    assert.equal((await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(LIVE_WITHIN_MS) })).status, 200);
    await assertWellFormedClientServed();
  });

  it('refuses a NUL stream inside a transaction, rolls the transaction back at once and lets the server go on', async () => {
    const client = await RawClient.open(path);
    try {
      client.send(Buffer.concat([STARTUP, TRANSACTION_WITH_A_ROW]));
      assert.ok(await client.until((bytes) => readyCount(bytes) === 3, REFUSED_WITHIN_MS), 'the transaction is open');
      assert.equal(at(backendMessages(client.received), -1).body.toString(), 'T');
      const started = Date.now();
      client.send(Buffer.alloc(64 * 1024));
      assert.ok(await client.closedWithin(REFUSED_WITHIN_MS), 'the server closes the connection');
      assert.deepEqual(refusalIn(client.received, 0), {
        severity: 'FATAL',
        sqlState: PROTOCOL_VIOLATION,
        message: 'invalid frontend message type 0',
      });
      // The server's statement waits for the rollback only, not for the client's idle limit.
      await assertServerClean();
      assert.ok(Date.now() - started < IDLE_IN_TRANSACTION_MS, `the server went on after ${Date.now() - started} ms`);
    } finally {
      client.destroy();
    }
    await assertWellFormedClientServed();
  });

  it('gives the database back as soon as it refuses a client in a transaction, though the client never closes', async () => {
    const client = await RawClient.open(path, { halfOpen: true });
    try {
      client.send(Buffer.concat([STARTUP, TRANSACTION_WITH_A_ROW]));
      assert.ok(await client.until((bytes) => readyCount(bytes) === 3, REFUSED_WITHIN_MS), 'the transaction is open');
      client.send(Buffer.alloc(1));
      assert.ok(
        await client.until((bytes) => refusalIn(bytes, 0).sqlState === PROTOCOL_VIOLATION, REFUSED_WITHIN_MS),
        'the client is refused',
      );
      // The client's socket stays open for CLOSE_GRACE_MS, twenty times this bound: answered within it, the server's
      // statement did not wait for the socket to be dropped, however slow the machine.
      await within(
        assertServerClean(),
        IDLE_IN_TRANSACTION_MS,
        "the server's statement, while the refused client's socket is still open",
      );
    } finally {
      client.destroy();
    }
  });

  it('lets a client still writing a long NUL stream when refused read its refusal, whether it waited for its greeting or not', async () => {
    // Far more than the socket's buffers hold: the client is still writing when the server refuses the first byte.
    const stream = Buffer.alloc(4 * 1024 * 1024);
    const opening = Buffer.concat([STARTUP, TRANSACTION_WITH_A_ROW]);
    for (const separate of [false, true]) {
      const label = separate ? 'after its transaction was answered' : 'in one write with its startup and transaction';
      const session = {
        opening,
        openingReady: 3,
        negotiations: 0,
        separate,
        malformed: stream,
        sqlState: PROTOCOL_VIOLATION,
        label,
      };
      assert.equal(await play(path, session), undefined);
    }
    await assertServerClean();
    await assertWellFormedClientServed();
  });

  it('refuses COPY FROM STDIN, which would stop PGlite, and goes on', async () => {
    const message = await refusedAtOnce(
      [Buffer.concat([STARTUP, query('begin'), query('copy t from stdin')])],
      FEATURE_NOT_SUPPORTED,
    );
    assert.match(message ?? '', /COPY FROM STDIN is not supported/);
    await assertServerClean();
    await assertWellFormedClientServed();
  });

  it('refuses a message longer than its limit from its length alone, without waiting for its bytes', async () => {
    await refusedAtOnce([STARTUP, header('Q', MAX_MESSAGE_BYTES + 1)], PROTOCOL_VIOLATION);
    await refusedAtOnce([STARTUP, header('S', MAX_SMALL_MESSAGE_BYTES + 1)], PROTOCOL_VIOLATION);
  });

  it(`stays live through ${SESSIONS} generated malformed sessions, answers HTTP in time, undoes every client's state and keeps its memory bounded`, async (t) => {
    const rssBefore = process.memoryUsage().rss;
    const refusalsBefore = refusals;
    const watch = watchHealth(url);
    const started = Date.now();
    let played = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(sessions, { minLength: SESSIONS_AT_ONCE, maxLength: SESSIONS_AT_ONCE }),
          async (batch) => {
            const problems = (await Promise.all(batch.map((session) => play(path, session)))).filter(
              (problem) => problem !== undefined,
            );
            played += batch.length;
            assert.deepEqual(problems, []);
          },
        ),
        { numRuns: SESSIONS / SESSIONS_AT_ONCE },
      );
    } finally {
      const health = await watch.stop();
      const elapsedMs = Date.now() - started;
      await sleep(500); // the last refused clients' clean-up
      const rssAfter = process.memoryUsage().rss;
      const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
      t.diagnostic(
        `${played} sessions in ${elapsedMs} ms; refusals logged ${refusals - refusalsBefore}; health checks ${health.checks} (ready 200: ${health.readyOk}), ` +
          `slowest live ${health.slowestLiveMs} ms, ready ${health.slowestReadyMs} ms; RSS before ${mib(rssBefore)}, peak ${mib(health.peakRss)}, after ${mib(rssAfter)}`,
      );
      assert.deepEqual(health.failures, []);
      assert.ok(health.checks > 0 && health.readyOk > 0);
      assert.ok(Math.max(health.peakRss, rssAfter) - rssBefore < RSS_GROWTH_BOUND, 'memory stays bounded');
    }
    assert.ok(played >= SESSIONS);
    await assertServerClean();
    await assertWellFormedClientServed();
    const ready = await fetch(`${url}/api/health/ready`, { signal: AbortSignal.timeout(READY_WITHIN_MS) });
    assert.equal(ready.status, 200);
  });
});
