import type { Command } from 'commander';
import type { App } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Queryable } from '../db/db.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { writeLine, type Cli } from './context.ts';

/** What a stop may take past the grace period: cancelling statements, closing sockets and the database. */
const SHUTDOWN_SLACK_MS = 2000;

/** The HL7 sender of `serve` and `worker`, polling and leasing as the mail worker does. */
const hl7SenderOptions = (app: App, db: Queryable, config: Config, io: Cli['io']) => ({
  db,
  clock: app.clock,
  pollMs: config.outboxPollMs,
  leaseMs: config.outboxLeaseMs,
  ackTimeoutMs: config.hl7AckTimeoutMs,
  log: (line: string) => writeLine(io.stderr, line),
});

export function register(program: Command, { getApp, getDb, io }: Cli): void {
  program
    .command('serve')
    .description('start the web server (migrates first; loads the demo clinic into an empty embedded database)')
    .option('-p, --port <port>', 'port to listen on (default $PORT or 3000)')
    .option(
      '--no-worker',
      "leave the outbox's e-mails and the audit trail's sealing to `medora worker` processes (PostgreSQL only)",
    )
    .action(async (opts: { port?: string; worker: boolean }) => {
      const config = loadConfig(opts.port ? { ...process.env, PORT: opts.port } : process.env);
      // On the embedded database no other process can reach the outbox and the trail while the server holds them.
      if (!opts.worker && !config.databaseUrl)
        throw new DomainError(
          'invalid',
          'invalid',
          '--no-worker needs DATABASE_URL: on the embedded database only the server can send its e-mails and seal its trail',
        );
      // Loaded when a command runs, so `medora --help` does not wait for the database drivers and the web server;
      // the embedded database, the demo clinic and the HL7 listener only when this server uses them, as each of
      // PGlite, the demo's data and the MLLP server would otherwise stay in every instance's memory.
      const [
        { createMedoraServer, listen },
        { closeGracefully },
        { billInterimStaysDaily, checkpointAuditHourly, databaseRoleWarning, openRuntime, pruneAuditDaily },
        { startMailWorker },
        { sealAuditContinuously },
        { startHl7Sender },
        { startExportWorker },
      ] = await Promise.all([
        import('../http/server.ts'),
        import('../http/shutdown.ts'),
        import('../runtime.ts'),
        import('../mail/start.ts'),
        import('../audit-sealer.ts'),
        import('../hl7/sender.ts'),
        import('../fhir-export-worker.ts'),
      ]);
      // The server alone opens the embedded folder; commands, psql and backups reach it through its sockets.
      const embedded = config.databaseUrl
        ? undefined
        : await (await import('../db/embedded/embedded.ts')).serveEmbedded(config.dataDir, config.timeouts, (line) =>
            writeLine(io.stdout, line),
          );
      const { app, db } = await openRuntime(config, { opened: embedded?.db });
      const roleWarning = await databaseRoleWarning(db, config);
      if (roleWarning) writeLine(io.stderr, roleWarning);
      const demo = embedded && config.seedDemo ? await import('../demo/seed.ts') : undefined;
      if (demo && (await demo.isEmpty(db))) {
        const { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } = demo;
        await seedDemo(app, db);
        writeLine(io.stdout, `Loaded the demo clinic. Sign in with password "${DEMO_PASSWORD}" as:`);
        for (const account of DEMO_ACCOUNTS) writeLine(io.stdout, `  ${account.role.padEnd(8)} ${account.email}`);
      }
      const server = createMedoraServer(app, {
        trustProxy: config.trustProxy,
        publicUrl: config.publicUrlSet ? config.publicUrl : undefined,
        fhirCorsOrigins: config.fhirCorsOrigins,
      });
      // Nothing else would end the process when it cannot listen: the database and its sockets hold it open.
      const address = await listen(server, config.port, config.host).catch(async (error: unknown) => {
        await db.close();
        throw error;
      });
      const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${config.dataDir}`;
      writeLine(io.stdout, `Medora is running at http://${config.host}:${address.port} on the ${where}`);
      const mail = opts.worker ? startMailWorker(app, db, config, (line) => writeLine(io.stderr, line)) : undefined;
      const hl7Out = opts.worker ? startHl7Sender(hl7SenderOptions(app, db, config, io)) : undefined;
      const exports = opts.worker
        ? startExportWorker(app, db, config, (line) => writeLine(io.stderr, line))
        : undefined;
      if (!opts.worker)
        writeLine(
          io.stdout,
          'No worker in this process: `medora worker` sends the e-mails and HL7 messages, writes the $export jobs and seals the audit trail.',
        );
      else if (!config.smtpUrl)
        writeLine(io.stdout, 'No SMTP_URL: e-mails are kept in the outbox, marked not sent (admin → Messages).');
      const hl7 =
        config.hl7ListenPort === undefined
          ? undefined
          : await (await import('../hl7/listener.ts')).startHl7Listener(
              app.hl7Inbound.receiveMessage,
              config.hl7ListenPort,
              (line) => writeLine(io.stderr, line),
            );
      if (hl7) writeLine(io.stdout, `Taking HL7 v2 messages over MLLP on port ${hl7.port}`);
      if (embedded && config.backupKeep > 0) {
        embedded.backUpNightly({ time: config.backupTime, keep: config.backupKeep, timeZone: config.clinicTz });
      }
      const sealing = opts.worker ? sealAuditContinuously(app.audit, (line) => writeLine(io.stderr, line)) : undefined;
      const pruning = pruneAuditDaily(app, (line) => writeLine(io.stdout, line));
      const interimBills = billInterimStaysDaily(app, (line) => writeLine(io.stdout, line));
      const checkpoints = config.auditSigningKeyFile
        ? checkpointAuditHourly(app, (line) => writeLine(io.stdout, line))
        : undefined;
      const stop = async (signal: string) => {
        pruning.stop();
        interimBills.stop();
        checkpoints?.stop();
        writeLine(
          io.stdout,
          `${signal}: finishing requests in flight (at most ${config.shutdownGraceMs} ms), then stopping`,
        );
        // Whatever the database does, the process is gone soon after the grace period.
        setTimeout(() => {
          writeLine(io.stderr, 'Stopped without closing the database: it did not let go in time.');
          process.exit(1);
        }, config.shutdownGraceMs + SHUTDOWN_SLACK_MS).unref();
        await Promise.all([closeGracefully(server, config.shutdownGraceMs), hl7?.stop(config.shutdownGraceMs)]);
        await Promise.all([mail?.stop(), hl7Out?.stop(), exports?.stop(), sealing?.stop()]);
        await db.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  program
    .command('worker')
    .description(
      "send the outbox's e-mails and HL7 messages, write the FHIR $export jobs (and delete them once expired) and seal the audit trail in a process of its own (medora serve does all of it too); stops on SIGTERM",
    )
    .action(async () => {
      const config = loadConfig();
      const [
        { startMailWorker },
        { databaseRoleWarning },
        { sealAuditContinuously },
        { startHl7Sender },
        { startExportWorker },
      ] = await Promise.all([
        import('../mail/start.ts'),
        import('../runtime.ts'),
        import('../audit-sealer.ts'),
        import('../hl7/sender.ts'),
        import('../fhir-export-worker.ts'),
      ]);
      const [app, db] = await Promise.all([getApp(), getDb()]);
      const roleWarning = await databaseRoleWarning(db, config);
      if (roleWarning) writeLine(io.stderr, roleWarning);
      const mail = startMailWorker(app, db, config, (line) => writeLine(io.stderr, line));
      const sealing = sealAuditContinuously(app.audit, (line) => writeLine(io.stderr, line));
      const hl7Out = startHl7Sender(hl7SenderOptions(app, db, config, io));
      const exports = startExportWorker(app, db, config, (line) => writeLine(io.stderr, line));
      writeLine(
        io.stdout,
        config.smtpUrl ? "Sending the outbox's e-mails." : 'No SMTP_URL: due e-mails are marked not sent.',
      );
      await new Promise<void>((resolve) => {
        const stop = () =>
          void Promise.all([mail.stop(), hl7Out.stop(), exports.stop(), sealing.stop()]).then(() => resolve());
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .action(async () => {
      await getApp();
      writeLine(io.stdout, 'Database schema is up to date.');
    });

  program
    .command('seed')
    .description('load data into the database')
    .requiredOption('--demo', 'the demo clinic: accounts, catalogue, schedules, appointments, records and bills')
    .action(async () => {
      const { DEMO_PASSWORD, isEmpty, seedDemo } = await import('../demo/seed.ts');
      const [app, db] = await Promise.all([getApp(), getDb()]);
      if (!(await isEmpty(db)))
        throw new Error('The database already has users; the demo loads only into an empty database.');
      await seedDemo(app, db);
      writeLine(io.stdout, `Loaded the demo clinic. Password for every demo account: ${DEMO_PASSWORD}`);
    });
}
