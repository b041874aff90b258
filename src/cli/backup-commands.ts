import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { loadConfig, type Config } from '../config.ts';
import { clinicDateTime } from '../domain/shared/clock.ts';
import { BackupError } from '../db/backup-error.ts';
import type { TableCount } from '../db/table-counts.ts';
import { writeLine, type Cli } from './context.ts';

// The database and dump tools load when a command runs, so `medora --help` does not wait for them.
export function register(program: Command, { io }: Cli): void {
  program
    .command('backup')
    .description('write a consistent snapshot of the database to a file, also while the server runs')
    .option(
      '--out <file>',
      'the file to write (default medora-<date>-<time>.sql.gz, or .dump on PostgreSQL, in this folder)',
    )
    .action(async (opts: { out?: string }) => {
      const config = loadConfig();
      const [{ backupPostgres }, { writeAtomically }, { backupEmbedded }] = await Promise.all([
        import('../db/pg-tools.ts'),
        import('../db/atomic-file.ts'),
        import('../db/embedded/embedded.ts'),
      ]);
      const started = performance.now();
      const { date, time } = clinicDateTime(new Date(), config.clinicTz);
      const url = serverUrl(config);
      const out = opts.out ?? `medora-${date}-${time.replace(':', '')}.${url ? 'dump' : 'sql.gz'}`;
      if (url) await backupPostgres(url, out);
      else await writeAtomically(out, await backupEmbedded(config.dataDir));
      writeLine(io.stdout, `Wrote ${out}: ${megabytes(statSync(out).size)} in ${seconds(started)}.`);
    });

  program
    .command('restore')
    .description('load a backup into an empty database (the embedded one with the server stopped)')
    .argument('<file>', 'a file written by medora backup')
    .option('--force', 'replace a database that holds data; says what it replaces')
    .action(async (file: string, opts: { force?: boolean }) => {
      const config = loadConfig();
      const [{ describeCounts }, { restorePostgres }, { restoreEmbedded }] = await Promise.all([
        import('../db/table-counts.ts'),
        import('../db/pg-tools.ts'),
        import('../db/embedded/embedded.ts'),
      ]);
      const started = performance.now();
      statSync(file); // a missing file is named before anything else happens
      const url = serverUrl(config);
      if (!url) {
        const result = await restoreEmbedded(config.dataDir, file, { force: opts.force ?? false });
        if (result.keptAt)
          writeLine(
            io.stdout,
            `Replaced a database with ${describeCounts(result.replaced)}; it is kept in ${result.keptAt}.`,
          );
        writeLine(
          io.stdout,
          `Restored ${file} in ${seconds(started)}: ${describeCounts(result.restored) || 'no rows'}.`,
        );
        return;
      }
      const replaced = await countsAt(url);
      if (replaced.length > 0 && !opts.force) {
        throw new BackupError(`The database is not empty (${describeCounts(replaced)}); add --force to replace it`);
      }
      if (replaced.length > 0) writeLine(io.stdout, `Replacing a database with ${describeCounts(replaced)}.`);
      await restorePostgres(url, file);
      writeLine(
        io.stdout,
        `Restored ${file} in ${seconds(started)}: ${describeCounts(await countsAt(url)) || 'no rows'}.`,
      );
    });

  program
    .command('move-to')
    .description('move the embedded database to an empty PostgreSQL 15+ database, checking rows and the audit chain')
    .argument('<url>', 'the target, postgres://user:password@host:5432/database')
    .option(
      '--from <file>',
      'an embedded backup to move (default: a backup of DATA_DIR taken now, also while the server runs)',
    )
    .option('--force', 'replace a database that holds data; says what it replaces')
    .action(async (url: string, opts: { from?: string; force?: boolean }) => {
      const config = loadConfig();
      const [
        { describeCounts },
        { backupEmbedded },
        { embeddedBackupSql, readEmbeddedBackup },
        { hidePassword, moveToPostgres },
      ] = await Promise.all([
        import('../db/table-counts.ts'),
        import('../db/embedded/embedded.ts'),
        import('../db/embedded/embedded-dump.ts'),
        import('../db/embedded/move-to-postgres.ts'),
      ]);
      const started = performance.now();
      if (!opts.from && config.databaseUrl)
        throw new BackupError(
          'DATABASE_URL is set: move-to moves the embedded database; unset it, or name an embedded backup with --from',
        );
      const source = opts.from ?? config.dataDir;
      const sql = opts.from
        ? readEmbeddedBackup(opts.from)
        : embeddedBackupSql(await backupEmbedded(config.dataDir), `the backup of ${config.dataDir}`);
      const move = await moveToPostgres(sql, url, { force: opts.force ?? false });
      if (move.replaced.length > 0) writeLine(io.stdout, `Replaced a database with ${describeCounts(move.replaced)}.`);
      writeLine(
        io.stdout,
        `Moved ${source} to ${hidePassword(url)} in ${seconds(started)}: ${describeCounts(move.moved) || 'no rows'}; audit chain intact (${move.auditRows} rows).`,
      );
    });
}

/** pg_dump and pg_restore set session state that a transaction pooler would not keep: they go to the server itself. */
const serverUrl = (config: Config) => config.databaseDirectUrl ?? config.databaseUrl;

async function countsAt(url: string): Promise<TableCount[]> {
  const [{ openPostgres }, { tableCounts }] = await Promise.all([
    import('../db/postgres.ts'),
    import('../db/table-counts.ts'),
  ]);
  const db = await openPostgres(url, { max: 1 });
  try {
    return await tableCounts(db);
  } finally {
    await db.close();
  }
}

const megabytes = (bytes: number) =>
  bytes < 1_000_000 ? `${Math.ceil(bytes / 1000)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
