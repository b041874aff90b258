import type { Command } from 'commander';
import { LAB_TEST_COLUMNS } from '../domain/lab/catalogue-import.ts';
import type { LabTestJson } from '../domain/lab/lab-shapes.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { MAX_PER_PAGE } from '../domain/shared/pagination.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';
import type { Cli } from './context.ts';
import { FILE_HELP, inputFormatOption, printSummary, progressReporter, readImportFile } from './import-commands.ts';

const COLUMNS: Column[] = [
  { key: 'id', header: 'ID' },
  { key: 'code_system', header: 'System' },
  { key: 'code', header: 'Code' },
  { key: 'name', header: 'Name' },
  { key: 'kind', header: 'Kind' },
  { key: 'category', header: 'Category' },
  { key: 'unit', header: 'Unit' },
  { key: 'price_cents', header: 'Price', money: true },
  { key: 'turnaround_minutes', header: 'Turnaround (min)' },
  { key: 'active', header: 'Active' },
];

/** `medora lab-tests`: the lab's test catalogue, listed and imported from a file. */
export function register(program: Command, { getApp, io }: Cli): void {
  const command = program
    .command('lab-tests')
    .description("list the lab's test catalogue and import tests from a file");

  command
    .command('list')
    .description('list the tests and panels of the catalogue (inactive ones too)')
    .option('--search <text>', 'only tests whose name or code matches this text')
    .addOption(formatOption())
    .action(async (opts: { search?: string; format?: string }) => {
      const app = await getApp();
      const items: LabTestJson[] = [];
      for (let page = 1; ; page++) {
        const found = await app.labApi.listCatalogue({ q: opts.search, page, per_page: MAX_PER_PAGE }, cliActor());
        items.push(...found.items);
        if (found.items.length < MAX_PER_PAGE) break;
      }
      printRows(io.stdout, items, COLUMNS, chosenFormat(opts.format, io.stdout));
    });

  command
    .command('import')
    .description(
      `add tests and panels (columns: ${LAB_TEST_COLUMNS.join(', ')}; answers and a panel's member codes separated ` +
        'by |, a panel after its tests); codes already in the catalogue are skipped, and nothing is written unless every row is good',
    )
    .argument('<file>', FILE_HELP)
    .option('--dry-run', 'check every row and write nothing')
    .addOption(inputFormatOption())
    .action(async (path: string, opts: { dryRun?: boolean; inputFormat?: string }) => {
      const file = await readImportFile(path, opts.inputFormat);
      const app = await getApp();
      const result = await app.imports.importLabTests(
        file,
        { dryRun: !!opts.dryRun, onProgress: progressReporter(io.stderr) },
        cliActor('cli-import'),
      );
      printSummary(io.stdout, result, result.imported === 1 ? 'lab test' : 'lab tests');
    });
}
