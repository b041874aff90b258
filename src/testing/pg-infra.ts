/**
 * The PostgreSQL infrastructure a hospital runs Medora on, started for a test from Debian's binaries: clusters made
 * with initdb (a primary of our own) and pg_basebackup (streaming replicas and standbys of it), started with pg_ctl on
 * free ports, and PgBouncer in transaction mode in front of one. Each lives in a folder of /tmp/infra-* and is
 * stopped by `stop()`. PostgreSQL and PgBouncer refuse to run as root: as root they run as the `postgres` user.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';
const PGBOUNCER = '/usr/sbin/pgbouncer';
const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;

export interface PgAddress {
  host: string;
  port: number;
}

/** A `postgres` URL for `database` at `address`, as the test server's superuser. */
export const urlAt = (address: PgAddress, database: string) =>
  `postgres://postgres@${address.host}:${address.port}/${database}`;

/**
 * The hundred ports these tests may use: 6500–6599, or from MEDORA_INFRA_PORT_BASE (say 6600), so two runs on one
 * machine keep apart.
 */
const PORT_BASE = Number(process.env.MEDORA_INFRA_PORT_BASE || 6500);

/** A free TCP port of the range on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const start = Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i++) {
    const port = PORT_BASE + ((start + i) % 100);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${PORT_BASE}–${PORT_BASE + 99}`);
}

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(`/tmp/infra-${label}-`);
  if (asRoot) await execFileAsync('chown', ['postgres:postgres', dir]);
  return dir;
}

/** Runs one of PostgreSQL's programs, as `postgres` when we are root. */
function run(program: string, args: string[], timeoutMs = 120_000) {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  return execFileAsync(file, argv, { timeout: timeoutMs, killSignal: 'SIGKILL' });
}

async function writeOwned(file: string, text: string): Promise<void> {
  await writeFile(file, text);
  if (asRoot) {
    const { stdout } = await execFileAsync('id', ['-u', 'postgres']);
    const uid = Number(stdout.trim());
    await chown(file, uid, uid);
  }
}

export interface Cluster extends PgAddress {
  dir: string;
  url(database: string): string;
  /**
   * The statements run in `database` logged since `from` (a length of the log, as `logLength` gave), each whole;
   * logged only where `log_statement` is on for it (`alter database … set log_statement = 'all'`).
   */
  statementsOf(database: string, from: number): Promise<string[]>;
  /** How long the log is now, for `statementsOf`. */
  logLength(): Promise<number>;
  /** One statement on a connection of its own. */
  query<T extends object>(database: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops the server: `fast` (clean, every WAL record sent to the standbys) or `immediate` (a crash). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** A standby becomes a primary. */
  promote(): Promise<void>;
  /** Stops it if it runs and removes its folder. */
  remove(): Promise<void>;
}

/**
 * A new, empty primary made by initdb, started on a free port; `settings` go in its postgresql.conf. (A copy of the
 * test server would bring every database on it, other test runs' too: hundreds of megabytes, which each standby
 * copied from it would copy again.)
 */
export function newCluster(opts: { name: string; settings?: string[] }): Promise<Cluster> {
  return startedCluster(opts, (data) =>
    run(`${BIN}/initdb`, [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale',
      'C.UTF-8',
      '--no-sync',
    ]),
  );
}

/**
 * A hot standby of `primary`, copied from it by pg_basebackup (WAL streamed with it, -R) and started on a free port,
 * named `name` (its application_name, which the primary's synchronous_standby_names may list). Debian keeps the
 * configuration outside the data folder, so the copy gets its own.
 */
export function standbyOf(primary: PgAddress, name: string): Promise<Cluster> {
  return startedCluster({ name, standbyOf: primary }, (data) =>
    run(`${BIN}/pg_basebackup`, [
      '-h',
      primary.host,
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      data,
      '-X',
      'stream',
      '-c',
      'fast',
      '-R',
    ]),
  );
}

/** A cluster whose data folder `make` writes, configured as `opts` say and started on a free port. */
async function startedCluster(
  opts: { name: string; settings?: string[]; standbyOf?: PgAddress },
  make: (data: string) => Promise<unknown>,
): Promise<Cluster> {
  const dir = await tempDir(opts.name);
  const data = `${dir}/data`;
  const port = await freePort();
  const address = { host: '127.0.0.1', port };
  const from = opts.standbyOf;
  await make(data);
  await writeOwned(
    `${data}/postgresql.conf`,
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 10',
      'hot_standby = on',
      'hot_standby_feedback = on',
      'shared_buffers = 16MB',
      'fsync = off',
      `cluster_name = '${opts.name}'`,
      // The database on each line, so a test can tell which cluster ran a database's statements (statementsOf).
      "log_line_prefix = '%m [%p] db=%d '",
      ...(from
        ? [`primary_conninfo = 'host=${from.host} port=${from.port} user=postgres application_name=${opts.name}'`]
        : []),
      ...(opts.settings ?? []),
      '',
    ].join('\n'),
  );
  await writeOwned(
    `${data}/pg_hba.conf`,
    ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', ''].join(
      '\n',
    ),
  );
  // The copy of a standby carries the source's own primary_conninfo in postgresql.auto.conf: ours, above, wins only
  // if that one goes.
  await writeOwned(`${data}/postgresql.auto.conf`, '');
  if (from) await writeOwned(`${data}/standby.signal`, '');
  let running = false;
  const cluster: Cluster = {
    ...address,
    dir,
    url: (database) => urlAt(address, database),
    logLength: async () => (await readFile(`${dir}/log`)).length,
    statementsOf: async (database, from) => {
      const text = (await readFile(`${dir}/log`)).subarray(from).toString('utf8');
      // An entry starts with the prefix's timestamp; a statement's further lines follow it as they are.
      return text
        .split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/)
        .filter(
          (entry) => entry.includes(` db=${database} LOG:  `) && /LOG: {2}(statement|execute [^:]*):/.test(entry),
        );
    },
    query: async (database, sql, params) => {
      const client = new pg.Client({ connectionString: urlAt(address, database), connectionTimeoutMillis: 5000 });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end().catch(() => {});
      }
    },
    start: async () => {
      await run(`${BIN}/pg_ctl`, ['-D', data, '-l', `${dir}/log`, '-w', '-t', '60', 'start']);
      running = true;
    },
    stop: async (mode = 'fast') => {
      if (!running) return;
      await run(`${BIN}/pg_ctl`, ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    promote: async () => {
      await run(`${BIN}/pg_ctl`, ['-D', data, '-w', '-t', '60', 'promote']);
    },
    remove: async () => {
      await cluster.stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}

/** Waits until `cluster`, a standby, has replayed everything its primary had written when this was called. */
export async function caughtUp(primary: Cluster, standby: Cluster, timeoutMs = 30_000): Promise<void> {
  const [{ lsn }] = (await primary.query<{ lsn: string }>('postgres', 'select pg_current_wal_lsn()::text as lsn')) as [
    { lsn: string },
  ];
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const [row] = await standby.query<{ done: boolean }>(
      'postgres',
      'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done',
      [lsn],
    );
    if (row?.done) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the standby on port ${standby.port} did not catch up in ${timeoutMs} ms`);
}

export interface Bouncer extends PgAddress {
  url(database: string): string;
  /** Its log's warnings and errors so far (a client refused, a server login failed), for a failed run's report. */
  complaints(): Promise<string[]>;
  /** Points every database at another server (a failover) and reloads, as an operator would. */
  retarget(to: PgAddress): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction mode on a free port, every database name passed to `upstream` as the same
 * user, trusting every client (as the test server does); `poolSize` server connections per database.
 */
export async function startPgbouncer(upstream: PgAddress, opts: { poolSize?: number } = {}): Promise<Bouncer> {
  const dir = await tempDir('pgbouncer');
  const port = await freePort();
  const config = (to: PgAddress) =>
    [
      '[databases]',
      `* = host=${to.host} port=${to.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${dir}/users.txt`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      `default_pool_size = ${opts.poolSize ?? 20}`,
      'server_reset_query =',
      'server_check_delay = 1',
      'server_login_retry = 1',
      'query_wait_timeout = 30',
      `logfile = ${dir}/pgbouncer.log`,
      `pidfile = ${dir}/pgbouncer.pid`,
      '',
    ].join('\n');
  await writeOwned(`${dir}/users.txt`, '"postgres" ""\n');
  await writeOwned(`${dir}/pgbouncer.ini`, config(upstream));
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), `${dir}/pgbouncer.ini`], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = { host: '127.0.0.1', port };
  const until = performance.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createConnection(address);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || performance.now() > until) {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start (exit ${child.exitCode}); see ${dir}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    ...address,
    url: (database) => urlAt(address, database),
    complaints: async () =>
      (await readFile(`${dir}/pgbouncer.log`, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => / (WARNING|ERROR|FATAL) /.test(line)),
    retarget: async (to) => {
      await writeOwned(`${dir}/pgbouncer.ini`, config(to));
      child.kill('SIGHUP');
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
