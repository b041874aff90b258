import type { Command } from 'commander';
import { cliActor } from '../domain/shared/actor.ts';
import type { Cli } from './context.ts';
import { formatOption } from './format.ts';
import { printAdded, printTimeOff, spanBody, withSpanOptions, type SpanOptions } from './time-off-cli.ts';

export function register(program: Command, { getApp, io }: Cli): void {
  const closures = program
    .command('closures')
    .description('days the whole clinic is closed (holidays): no slots for any doctor');

  withSpanOptions(
    closures.command('add').description('close the clinic; lists the booked visits inside the closure to move'),
    'why, e.g. the holiday (required)',
  ).action(async (opts: SpanOptions) => {
    const app = await getApp();
    printAdded(io.stdout, await app.scheduling.addClosure(spanBody(opts), cliActor()), opts.format);
  });

  closures
    .command('list')
    .description("closures and doctors' leave that end today or later")
    .option('--from <date>', 'those ending on this day or later')
    .addOption(formatOption())
    .action(async (opts: { from?: string; format?: string }) => {
      const app = await getApp();
      printTimeOff(
        io.stdout,
        (await app.scheduling.listTimeOff({ from: opts.from, per_page: 200 })).items,
        opts.format,
      );
    });

  closures
    .command('remove')
    .description('take a closure (or leave) back; its slots are offered again')
    .argument('<id>', 'the id `closures list` shows')
    .addOption(formatOption())
    .action(async (id: string, opts: { format?: string }) => {
      const app = await getApp();
      printTimeOff(io.stdout, [await app.scheduling.removeTimeOff(id, cliActor())], opts.format);
    });
}
