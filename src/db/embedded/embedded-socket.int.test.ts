import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import pg from 'pg';
import { gunzipSync } from 'node:zlib';
import { serveEmbedded, backupEmbedded, type EmbeddedServer } from './embedded.ts';
import { DEFAULT_TIMEOUTS } from '../timeouts.ts';
import { at, only } from '../../testing/assert.ts';
import { MAX_SOCKET_CLIENTS } from './embedded-socket.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const IDLE_IN_TRANSACTION_MS = 2000;

describe('the embedded database shared through its socket', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let server: EmbeddedServer;
  const clients: pg.Client[] = [];
  const log: string[] = [];

  const connect = async () => {
    const client = new pg.Client({ host: dir, user: 'postgres', database: 'postgres' });
    client.on('error', () => {}); // a client the server disconnects on purpose
    await client.connect();
    clients.push(client);
    return client;
  };
  const serverRows = async () =>
    (await server.db.query<{ v: string }>('select v from t order by id')).map((row) => row.v);

  before(async () => {
    // A copy of the migrated test folder: serving a new folder would first spend seconds creating the database.
    ({ dataDir: dir, remove: removeDir } = await embeddedDataDir());
    // The server's statements wait for their turn ten times the idle limit: one held up by an idle client is answered
    // once the client is disconnected, however slow the machine, rather than refused first.
    const timeouts = {
      ...DEFAULT_TIMEOUTS,
      idleInTransactionMs: IDLE_IN_TRANSACTION_MS,
      acquireMs: 10 * IDLE_IN_TRANSACTION_MS,
    };
    server = await serveEmbedded(dir, timeouts, (line) => log.push(line));
    await server.db.exec('create table t (id integer generated always as identity primary key, v text not null)');
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    // Either is missing when the before hook failed; the other is still closed.
    await server?.db.close();
    await removeDir?.();
  });

  // First, while no other client is connected.
  it(`tells the client past ${MAX_SOCKET_CLIENTS} that there are too many, as PostgreSQL does, and lets one in when another goes`, async () => {
    const connected = await Promise.all(Array.from({ length: MAX_SOCKET_CLIENTS }, () => connect()));
    const refusal = await connect().then(
      () => assert.fail('a client past the limit was let in'),
      (error: pg.DatabaseError) => error,
    );
    assert.equal(refusal.severity, 'FATAL');
    assert.equal(refusal.code, '53300');
    assert.equal(refusal.message, 'sorry, too many clients already');
    assert.ok(log.includes('database socket: disconnecting a client: sorry, too many clients already'), log.join('\n'));

    await at(connected, 0).end();
    // The server frees the place once it has seen the client go; a client trying before then is refused, and tries again.
    const deadline = Date.now() + 5000;
    let next: pg.Client | undefined;
    while (!next) {
      next = await connect().catch((error: pg.DatabaseError) => {
        if (error.code !== '53300' || Date.now() > deadline) throw error;
        return sleep(50).then(() => undefined);
      });
    }
    assert.deepEqual((await next.query<{ one: number }>('select 1 as one')).rows, [{ one: 1 }]);
    await Promise.all([next, ...connected.slice(1)].map((client) => client.end()));
  });

  it("keeps a client's open transaction and the server's statements apart, both ways", async () => {
    const client = await connect();
    await client.query('begin');
    await client.query(`insert into t (v) values ('client, uncommitted')`);
    // Were it let in now, the server's statement would run inside the client's transaction and see its row.
    const seen = serverRows();
    await sleep(200);
    await client.query('rollback');
    assert.deepEqual(await seen, []);

    const serverTransaction = server.db
      .transaction(async (tx) => {
        await tx.query(`insert into t (v) values ('server')`);
        await sleep(200);
        throw new Error('the server changes its mind');
      })
      .catch((error: Error) => error.message);
    await sleep(50);
    await client.query(`insert into t (v) values ('client')`);
    assert.equal(await serverTransaction, 'the server changes its mind');
    assert.deepEqual(await serverRows(), ['client']);
  });

  it("keeps a client's settings to itself, across its statements", async () => {
    const client = await connect();
    await client.query(`set search_path = ''`);
    await client.query(`set statement_timeout = '7s'`);
    assert.deepEqual(await serverRows(), ['client'], 'the server still finds t without a schema');
    assert.equal(only(await server.db.query<{ s: string }>("select current_setting('statement_timeout') as s")).s, '0');
    assert.equal((await client.query('show search_path')).rows[0].search_path, '""');
    assert.equal((await client.query('show statement_timeout')).rows[0].statement_timeout, '7s');
    assert.equal((await (await connect()).query('show search_path')).rows[0].search_path, 'public');
  });

  it("keeps prepared statements apart, and drops a client's when it goes", async () => {
    const [a, b] = [await connect(), await connect()];
    const named = (text: string) => ({ name: 'same_name', text });
    assert.deepEqual((await a.query(named(`select 'a' as who`))).rows, [{ who: 'a' }]);
    assert.deepEqual((await b.query(named(`select 'b' as who`))).rows, [{ who: 'b' }]);
    assert.deepEqual((await a.query(named(`select 'a' as who`))).rows, [{ who: 'a' }]);
    await a.query(`prepare by_sql as select 1 as one`);
    await a.end();
    await sleep(100);
    const c = await connect();
    await c.query(`prepare by_sql as select 2 as two`);
    assert.deepEqual((await c.query('execute by_sql')).rows, [{ two: 2 }]);
  });

  it("hands a client's NOTIFY to the server's listeners, not back to the client", async () => {
    const heard: string[] = [];
    await server.db.listen('medora_test', { live: () => {}, lost: () => {}, notice: (payload) => heard.push(payload) });
    const client = await connect();
    const clientHeard: string[] = [];
    client.on('notification', (message) => clientHeard.push(message.payload ?? ''));
    await client.query(`select pg_notify('medora_test', 'from the socket')`);
    assert.deepEqual(heard, ['from the socket']);
    assert.deepEqual(clientHeard, []);
  });

  it('disconnects a client idle inside a transaction, rolls it back and lets the server go on', async () => {
    const client = await connect();
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await client.query('begin');
    // Taken before the insert is sent, so before the server starts its idle limit on answering it: however late this
    // test gets to run, what it measures is never shorter than the server's wait (a timer may fire a few ms early).
    const started = Date.now();
    await client.query(`insert into t (v) values ('idle')`);
    const rows = await serverRows();
    assert.ok(Date.now() - started >= IDLE_IN_TRANSACTION_MS - 100, 'the server waited for the transaction');
    assert.deepEqual(rows, ['client']);
    await ended;
  });

  it('backs up while a client holds a transaction, without its uncommitted rows, and leaves the server writable', async () => {
    const client = await connect();
    await client.query('begin');
    await client.query(`insert into t (v) values ('not yet')`);
    const backup = backupEmbedded(dir);
    await sleep(200);
    await client.query('rollback');
    const sql = gunzipSync(await backup).toString('utf8');
    assert.match(sql, /INSERT INTO public\.t .*'client'/s);
    assert.doesNotMatch(sql, /not yet/);
    // pg_dump ends in a read-only transaction with search_path emptied; none of it may reach the server.
    await server.db.query(`insert into t (v) values ('after the backup')`);
    assert.deepEqual(await serverRows(), ['client', 'after the backup']);
    assert.equal(only(await server.db.query<{ search_path: string }>('show search_path')).search_path, 'public');
  });
});
