import { open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { formatOf, type ImportFormat } from '../domain/imports/parse.ts';
import {
  DEPARTMENT_COLUMNS,
  DOCTOR_COLUMNS,
  type ImportFile,
  type ImportOptions,
  type ImportResult,
  type ImportedCredential,
} from '../domain/imports/use-cases.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { invalid } from '../domain/shared/errors.ts';
import { toCsv } from './format.ts';
import type { App } from '../app.ts';
import { writeLine, type Cli, type Output } from './context.ts';

export const FILE_HELP = 'a CSV file with a header row, or a JSON array of objects (by the .json extension)';
export const inputFormatOption = () =>
  new Option('--input-format <format>', 'csv or json, when the file name does not say').choices(['csv', 'json']);

export async function readImportFile(
  path: string,
  formatOption: string | undefined,
): Promise<{ text: string; format: ImportFormat }> {
  try {
    return { text: await readFile(path, 'utf8'), format: (formatOption as ImportFormat | undefined) ?? formatOf(path) };
  } catch (error) {
    throw invalid({
      file: [`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`],
    });
  }
}

/** Progress on stderr, and only for a person watching a terminal; logs and cron mail stay clean. */
export function progressReporter(stderr: Output): ((step: string, done: number, total: number) => void) | undefined {
  if (!stderr.isTTY) return undefined;
  return (step, done, total) => stderr.write(`\r${step}: ${done}/${total}${done === total ? '\n' : ''}`);
}

export function printSummary(out: Output, result: ImportResult, noun: string, also: string[] = []): void {
  const count = `${result.imported} ${noun}`;
  writeLine(
    out,
    result.dryRun
      ? `Dry run: every row is valid; ${count} would be imported. Nothing was written.`
      : `Imported ${count}.`,
  );
  for (const line of also) writeLine(out, line);
  if (result.skipped.length > 0) {
    writeLine(out, `Skipped ${result.skipped.length} already present:`);
    for (const { where, reason } of result.skipped) writeLine(out, `  ${where}: ${reason}`);
  }
}

/**
 * The credentials file is created (mode 600, never over an existing file) before anything is imported, so a
 * path that cannot be written fails the import instead of leaving accounts nobody knows the password of.
 */
async function credentialsFile(
  path: string,
): Promise<{ save(c: ImportedCredential[]): Promise<void>; discard(): Promise<void>; close(): Promise<void> }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'EEXIST'
        ? 'already exists; name a new file so earlier passwords are not overwritten'
        : `cannot be created (${code})`;
    throw invalid({ 'credentials-out': [`${path} ${problem}`] });
  }
  return {
    save: async (credentials) => {
      const columns = ['name', 'email', 'password'].map((key) => ({ key, header: key }));
      await handle.writeFile(toCsv(credentials, columns));
      await handle.sync();
    },
    discard: async () => {
      await handle.close();
      await unlink(path);
    },
    close: () => handle.close(),
  };
}

/**
 * A subcommand that imports one kind of row from a file with `--dry-run`: every row checked first, nothing written
 * unless all are good, the summary named by `noun` (singular, plural).
 */
export function rowImportCommand(
  parent: Command,
  { getApp, io }: Cli,
  spec: {
    name: string;
    description: string;
    noun: [string, string];
    run: (app: App, file: ImportFile, options: ImportOptions) => Promise<ImportResult>;
  },
): void {
  parent
    .command(spec.name)
    .description(spec.description)
    .argument('<file>', FILE_HELP)
    .option('--dry-run', 'check every row and write nothing')
    .addOption(inputFormatOption())
    .action(async (path: string, opts: { dryRun?: boolean; inputFormat?: string }) => {
      const file = await readImportFile(path, opts.inputFormat);
      const result = await spec.run(await getApp(), file, {
        dryRun: !!opts.dryRun,
        onProgress: progressReporter(io.stderr),
      });
      printSummary(io.stdout, result, result.imported === 1 ? spec.noun[0] : spec.noun[1]);
    });
}

export function register(program: Command, cli: Cli): void {
  const { getApp, io } = cli;
  const importCommand = program
    .command('import')
    .description(
      'import catalogue data from a file: every row is checked first, and nothing is written unless all are good',
    );

  rowImportCommand(importCommand, cli, {
    name: 'departments',
    description: `import departments (columns: ${DEPARTMENT_COLUMNS.join(', ')}); names that exist already are skipped`,
    noun: ['department', 'departments'],
    run: (app, file, options) => app.imports.importDepartments(file, options, cliActor('cli-import')),
  });

  importCommand
    .command('doctors')
    .description(
      `import doctor accounts (columns: ${DOCTOR_COLUMNS.join(', ')}; name and email required), naming ` +
        'specializations and departments by name; doctors whose email already has a doctor account are skipped',
    )
    .argument('<file>', FILE_HELP)
    .option(
      '--credentials-out <file>',
      "new file (mode 600) that receives each new doctor's generated password; required unless --dry-run",
    )
    .option('--create-missing', 'create specializations and departments the file names but the catalogue lacks')
    .option('--dry-run', 'check every row and write nothing')
    .addOption(inputFormatOption())
    .action(async function (
      this: Command,
      path: string,
      opts: { credentialsOut?: string; createMissing?: boolean; dryRun?: boolean; inputFormat?: string },
    ) {
      const credentialsOut = opts.dryRun
        ? undefined
        : (opts.credentialsOut ??
          this.error("error: required option '--credentials-out <file>' not specified", { exitCode: 2 }));
      const file = await readImportFile(path, opts.inputFormat);
      const app = await getApp();
      const credentials = credentialsOut === undefined ? undefined : await credentialsFile(credentialsOut);
      try {
        const result = await app.imports.importDoctors(
          file,
          {
            dryRun: !!opts.dryRun,
            createMissing: !!opts.createMissing,
            onProgress: progressReporter(io.stderr),
            // A dry run never saves: it hands out no passwords.
            saveCredentials: credentials ? (list) => credentials.save(list) : async () => {},
          },
          cliActor('cli-import'),
        );
        // A file of no passwords would only suggest there are some somewhere.
        if (result.imported === 0) await credentials?.discard();
        else await credentials?.close();
        const created = [
          ...result.createdSpecializations.map((name) => `specialization "${name}"`),
          ...result.createdDepartments.map((name) => `department "${name}"`),
        ];
        const also = created.length > 0 ? [`${result.dryRun ? 'Would create' : 'Created'} ${created.join(', ')}.`] : [];
        if (credentials && result.imported > 0)
          also.push(`Their passwords are in ${opts.credentialsOut} (readable only by you).`);
        printSummary(io.stdout, result, result.imported === 1 ? 'doctor' : 'doctors', also);
      } catch (error) {
        await credentials?.discard();
        throw error;
      }
    });
}
