import type { Command } from 'commander';
import { LAB_TEST_COLUMNS } from '../domain/lab/catalogue-import.ts';
import type { LabTestJson } from '../domain/lab/lab-shapes.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { MAX_PER_PAGE } from '../domain/shared/pagination.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';
import type { Cli } from './context.ts';
import { rowImportCommand } from './import-commands.ts';

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
export function register(program: Command, cli: Cli): void {
  const { getApp, io } = cli;
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

  rowImportCommand(command, cli, {
    name: 'import',
    description:
      `add tests and panels (columns: ${LAB_TEST_COLUMNS.join(', ')}; answers and a panel's member codes separated ` +
      'by |, a panel after its tests); codes already in the catalogue are skipped, and nothing is written unless every row is good',
    noun: ['lab test', 'lab tests'],
    run: (app, file, options) => app.imports.importLabTests(file, options, cliActor('cli-import')),
  });
}
