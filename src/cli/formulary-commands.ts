import type { Command } from 'commander';
import { FORMULARY_COLUMNS } from '../domain/imports/formulary-import.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { allItems } from './catalogue-commands.ts';
import { writeLine, type Cli } from './context.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';
import { FILE_HELP, inputFormatOption, readImportFile } from './import-commands.ts';

const COLUMNS: Column[] = [
  { key: 'id', header: 'ID' },
  { key: 'generic_name', header: 'Generic name' },
  { key: 'form', header: 'Form' },
  { key: 'strength', header: 'Strength' },
  { key: 'routes', header: 'Routes' },
  { key: 'dose_unit', header: 'Dose unit' },
  { key: 'price', header: 'Price' },
  { key: 'active', header: 'Active' },
];

/** `medora formulary list` and `medora formulary import FILE`: the medicines doctors prescribe from. */
export function register(program: Command, { getApp, io }: Cli): void {
  const formulary = program.command('formulary').description('list the formulary and import medicines into it');

  formulary
    .command('list')
    .description('list the medicines of the formulary, by generic name')
    .option('--search <text>', 'only medicines whose generic name contains this text')
    .option('--include-inactive', 'also medicines no longer listed for prescribing')
    .addOption(formatOption())
    .action(async (opts: { search?: string; includeInactive?: boolean; format?: string }) => {
      const app = await getApp();
      const include_inactive = opts.includeInactive ? 'true' : 'false';
      const items = await allItems((query) => app.medicines.listFormulary({ ...query, include_inactive }), opts.search);
      const rows = items.map((m) => ({ ...m, routes: m.routes.join(' '), active: m.active ? 'yes' : 'no' }));
      printRows(io.stdout, rows, COLUMNS, chosenFormat(opts.format, io.stdout));
    });

  formulary
    .command('import')
    .description(
      `import medicines (columns: ${FORMULARY_COLUMNS.join(', ')}; routes separated by ";"): a medicine of the ` +
        'same generic name, form and strength is updated, any other added; every row is checked first, and ' +
        'nothing is written unless all are good',
    )
    .argument('<file>', FILE_HELP)
    .addOption(inputFormatOption())
    .action(async (path: string, opts: { inputFormat?: string }) => {
      const file = await readImportFile(path, opts.inputFormat);
      const app = await getApp();
      const { created, updated } = await app.medicines.importFormulary(file, cliActor('cli-import'));
      writeLine(io.stdout, `Imported the formulary: ${created} added, ${updated} updated.`);
    });
}
