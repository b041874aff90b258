import { Command, CommanderError } from 'commander';
import type { App } from '../app.ts';
import { openRuntime } from '../runtime.ts';
import { reportError } from './output.ts';
import { register as registerServer } from './server-commands.ts';
import { register as registerAdmin } from './admin-commands.ts';
import { register as registerCatalogue } from './catalogue-commands.ts';
import { register as registerImport } from './import-commands.ts';
import { register as registerReport } from './report-commands.ts';
import { register as registerSchedules } from './schedule-commands.ts';
import { register as registerBackup } from './backup-commands.ts';

export type GetApp = () => Promise<App>;

const program = new Command('medora')
  .description('Medora clinic management: web server, database and administration from the terminal')
  .showHelpAfterError()
  .exitOverride();

// Commands open the database only when they need it, and the same one for the whole run.
let opened: Promise<App> | undefined;
const getApp: GetApp = () => (opened ??= openRuntime(undefined, { longStatements: true }).then((runtime) => runtime.app));

registerServer(program, getApp);
registerAdmin(program, getApp);
registerCatalogue(program, getApp);
registerImport(program, getApp);
registerSchedules(program, getApp);
registerReport(program, getApp);
registerBackup(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version are not failures; every other commander complaint is a usage error.
    process.exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
  } else {
    reportError(error);
  }
} finally {
  if (opened) await (await opened.catch(() => undefined))?.db.close();
}
