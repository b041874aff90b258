import { Command, CommanderError } from 'commander';
import type { Runtime } from '../runtime.ts';
import type { Cli, CliIo, Output } from './context.ts';
import { reportError } from './output.ts';
import { register as registerServer } from './server-commands.ts';
import { register as registerAdmin } from './admin-commands.ts';
import { register as registerUsers } from './user-commands.ts';
import { register as registerCatalogue } from './catalogue-commands.ts';
import { register as registerImport } from './import-commands.ts';
import { register as registerReport } from './report-commands.ts';
import { register as registerSchedules } from './schedule-commands.ts';
import { register as registerClosures } from './closure-commands.ts';
import { register as registerBackup } from './backup-commands.ts';
import { register as registerAudit } from './audit-commands.ts';
import { register as registerDb } from './db-commands.ts';
import { register as registerInpatient } from './inpatient-commands.ts';
import { register as registerExport } from './export-commands.ts';
import { register as registerLabTests } from './lab-test-commands.ts';
import { register as registerHl7 } from './hl7-commands.ts';
import { register as registerFormulary } from './formulary-commands.ts';

// Help and version are not failures; every other complaint of commander's is a usage error.
const NOT_FAILURES = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

// Commander's own default: the terminal's width, or 80 columns into a file or a pipe.
const helpWidth = (out: Output) => (out.isTTY && out.columns) || 80;

/** Runs `medora …args` against `cli`'s app and terminal, and answers the exit code: 0, 1 refused or failed, 2 usage. */
export async function medora(args: readonly string[], cli: Cli): Promise<number> {
  const { stdout, stderr } = cli.io;
  const program = new Command('medora')
    .description('Medora clinic management: web server, database and administration from the terminal')
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
      getOutHelpWidth: () => helpWidth(stdout),
      getErrHelpWidth: () => helpWidth(stderr),
    })
    .showHelpAfterError()
    .exitOverride();

  for (const register of [
    registerServer,
    registerAdmin,
    registerUsers,
    registerCatalogue,
    registerImport,
    registerSchedules,
    registerClosures,
    registerReport,
    registerBackup,
    registerAudit,
    registerDb,
    registerInpatient,
    registerExport,
    registerLabTests,
    registerHl7,
    registerFormulary,
  ]) {
    register(program, cli);
  }

  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return NOT_FAILURES.has(error.code) ? 0 : 2;
    reportError(error, stderr);
    return 1;
  }
}

/** `medora` as a process: commands open the configured database when they need it, and it is closed at the end. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  // Whatever Medora writes (the embedded database, backups, reports) is its owner's alone.
  process.umask(0o077);
  let opened: Promise<Runtime> | undefined;
  // The app, and the database drivers with it, load only for a command that needs them.
  const open = () =>
    (opened ??= import('../runtime.ts').then(({ openRuntime }) => openRuntime(undefined, { longStatements: true })));
  try {
    return await medora(args, {
      getApp: () => open().then((runtime) => runtime.app),
      getDb: () => open().then((runtime) => runtime.db),
      io,
    });
  } finally {
    if (opened) await (await opened.catch(() => undefined))?.db.close();
  }
}
