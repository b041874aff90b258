import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '../config.ts';
import { cliActor } from '../domain/shared/actor.ts';
import type { Cli } from './context.ts';

const patientId = (value: string) => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new InvalidArgumentError('a patient id is a positive whole number');
  return value;
};

export function register(program: Command, { getApp, io }: Cli): void {
  const fhir = program.command('fhir').description('the FHIR R4 facade');

  fhir
    .command('export')
    .description("write a patient's record as FHIR R4 NDJSON, one resource a line (what Patient/{id}/$everything holds)")
    .requiredOption('--patient <id>', 'the Patient ID', patientId)
    .action(async (opts: { patient: string }) => {
      const app = await getApp();
      const base = `${loadConfig().publicUrl}/fhir/R4`;
      for await (const resource of app.fhir.exportPatient({ base, id: opts.patient }, cliActor())) io.stdout.write(`${JSON.stringify(resource)}\n`);
    });
}
