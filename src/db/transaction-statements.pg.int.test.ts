import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from './postgres.ts';
import { testDatabases } from '../testing/test-db.ts';

/**
 * A proxy to the server that hands the client its answers one protocol message at a time, as a busy machine can:
 * a failed statement's error then reaches pg before the server is ready for the next statement.
 */
async function messageByMessage(url: string) {
  const server = new URL(url);
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const upstream = createConnection(Number(server.port || 5432), server.hostname);
    client.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    let sending = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const messages: Buffer[] = [];
      // A backend message: one type byte, then its length (itself included).
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const size = 1 + pending.readInt32BE(1);
        messages.push(pending.subarray(0, size));
        pending = pending.subarray(size);
      }
      sending = sending.then(async () => {
        for (const message of messages) {
          client.write(message);
          await sleep(2);
        }
      });
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const through = new URL(url);
  through.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url: through.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      proxy.close();
    },
  };
}

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('statements asked for at once in a transaction, on postgres', () => {
    it('runs them one after another on its client, each answered its own rows, without pg’s deprecated queue', async () => {
      const warnings: string[] = [];
      const listen = (warning: Error) => warnings.push(warning.message);
      process.on('warning', listen);
      const database = await target.open();
      assert.ok(database.url);
      const proxy = await messageByMessage(database.url);
      const db = await openPostgres(proxy.url, { max: 1 });
      try {
        const answers = await db.transaction((tx) =>
          Promise.all(
            [3, 1, 2].map((n) =>
              tx.query<{ n: number }>('select $1::int as n, pg_sleep($1::int / 100.0) is null as slept', [n]),
            ),
          ),
        );
        assert.deepEqual(
          answers.map((rows) => rows.map((r) => r.n)),
          [[3], [1], [2]],
        );
        // The error comes before the server is ready again; the statement asked for beside it, and the rollback,
        // still wait their turn.
        const failed = await db
          .transaction((tx) => Promise.all([tx.query('select 1/0'), tx.query('select 1 as one')]))
          .catch((error: Error) => error.message);
        assert.match(String(failed), /division by zero/);
        assert.deepEqual(await db.query('select 2 as two'), [{ two: 2 }]);
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(
          warnings.filter((w) => w.includes('already executing a query')),
          [],
        );
      } finally {
        process.off('warning', listen);
        await db.close();
        proxy.close();
        await database.drop();
      }
    });
  });
}
