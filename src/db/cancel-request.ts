import { connect } from 'node:net';
import type pg from 'pg';

const CANCEL_REQUEST_CODE = 80877102;

/**
 * PostgreSQL's cancel request for the statement a connection runs, sent to the address that connection was made to:
 * a pooler (PgBouncer) takes it for its client and passes it to the server connection running that client's
 * statement, where `pg_cancel_backend` would need the server's pid, which a pooled client does not know.
 */
export function cancelRequest(
  connection: pg.ClientConfig,
  keys: { pid: number; secret: number },
  timeoutMs = 1000,
): Promise<void> {
  const url = connection.connectionString ? new URL(connection.connectionString) : undefined;
  const host = connection.host ?? decodeURIComponent(url?.hostname ?? '') ?? '127.0.0.1';
  const port = Number(connection.port ?? url?.port ?? 5432) || 5432;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(keys.pid, 8);
  packet.writeInt32BE(keys.secret, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    // Written, not ended: the other side closes once it has passed the request on, as libpq waits for. A client that
    // closes first crashes PgBouncer before 1.20 (bad client state: 0, pgbouncer/pgbouncer#801).
    socket.once('connect', () => socket.write(packet));
    socket.once('close', done);
    socket.once('error', (error) => {
      console.error(`database: could not cancel a statement at shutdown: ${error.message}`);
      done();
    });
  });
}
