import type { Command } from 'commander';
import { cliActor } from '../domain/shared/actor.ts';
import { writeLine, type Cli } from './context.ts';

export function register(program: Command, { getApp, io }: Cli): void {
  const inpatient = program.command('inpatient').description('hospital stays');

  inpatient
    .command('bill-interim')
    .description(
      'bill every whole week of nights of the stays still in a bed that is not billed yet (for a daily cron; running it twice bills once)',
    )
    .action(async () => {
      const app = await getApp();
      const { bills } = await app.inpatient.billInterimWeeks(cliActor());
      writeLine(io.stdout, `${bills} interim bill${bills === 1 ? '' : 's'} issued`);
    });
}
