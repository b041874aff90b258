import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '../config.ts';
import { writeNdjsonFiles, type NdjsonFile } from '../domain/fhir/bulk-files.ts';
import { cliActor } from '../domain/shared/actor.ts';
import type { Cli } from './context.ts';
import { writeLine } from './context.ts';

const patientId = (value: string) => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new InvalidArgumentError('a patient id is a positive whole number');
  return value;
};

/** A new owner-only file, written a line at a time as fast as the disk takes it. */
async function ndjsonFile(path: string): Promise<NdjsonFile> {
  const out = createWriteStream(path, { mode: 0o600 });
  await once(out, 'open');
  return {
    write: async (line) => {
      if (!out.write(line)) await once(out, 'drain');
    },
    close: async () => {
      out.end();
      await once(out, 'finish');
    },
  };
}

export function register(program: Command, { getApp, io }: Cli): void {
  program
    .command('export')
    .description('export data as FHIR R4 Bulk Data files')
    .command('patient')
    .description(
      "write a patient's whole record to DIR: one FHIR R4 NDJSON file per resource type (Patient.ndjson, Encounter.ndjson …) and a Bulk Data manifest.json; audited",
    )
    .argument('<id>', 'the Patient ID', patientId)
    .requiredOption('--out <dir>', 'the folder to write to (made if missing)')
    .action(async (id: string, opts: { out: string }) => {
      const app = await getApp();
      const base = `${loadConfig().publicUrl}/fhir/R4`;
      const dir = resolve(opts.out);
      const request = `${base}/Patient/${id}/$everything?_format=application/fhir+ndjson`;
      const exported = await app.fhir.exportPatient({ base, id, params: [], request, format: 'files' }, cliActor());
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const manifest = await writeNdjsonFiles(
        exported,
        (name) => ndjsonFile(join(dir, name)),
        (name) => pathToFileURL(join(dir, name)).href,
      );
      await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
      for (const { type, count } of manifest.output) writeLine(io.stderr, `${type}: ${count}`);
      writeLine(io.stdout, join(dir, 'manifest.json'));
    });
}
