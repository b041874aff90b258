/**
 * `node --import tsx scripts/with-pgbouncer.ts COMMAND ARGS…`: runs the command with PgBouncer in transaction mode in
 * front of TEST_DATABASE_URL's server (src/testing/pg-infra.ts) and its address in TEST_DATABASE_POOLER_URL, which
 * src/testing/test-db.ts then reaches the tests' databases through; stops PgBouncer after, and exits as the command did.
 */
import { spawn } from 'node:child_process';
import { startPgbouncer } from '../src/testing/pg-infra.ts';

const [command, ...args] = process.argv.slice(2);
const server = process.env.TEST_DATABASE_URL;
if (!command || !server) {
  console.error('usage: TEST_DATABASE_URL=… node --import tsx scripts/with-pgbouncer.ts COMMAND ARGS…');
  process.exit(2);
}
const upstream = new URL(server);
const bouncer = await startPgbouncer(
  { host: upstream.hostname, port: Number(upstream.port || 5432) },
  { poolSize: 40 },
);
console.log(`PgBouncer (transaction mode) on 127.0.0.1:${bouncer.port} in front of ${upstream.host}`);
let code = 1;
try {
  code = await new Promise<number>((resolve) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_POOLER_URL: bouncer.url('postgres') },
    });
    child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
} finally {
  if (code !== 0) {
    const complaints = await bouncer.complaints();
    console.log(`PgBouncer's warnings and errors (${complaints.length}):\n${complaints.slice(-200).join('\n')}`);
  }
  await bouncer.stop();
}
process.exit(code);
