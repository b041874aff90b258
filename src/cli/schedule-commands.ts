import type { Command } from 'commander';
import type { App } from '../app.ts';
import type { ScheduleJson } from '../domain/scheduling/pattern-use-cases.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { DomainError, invalid, type FieldErrors } from '../domain/shared/errors.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';
import type { Cli, Output } from './context.ts';
import { parseRange, printAdded, printTimeOff, spanBody, withSpanOptions, type SpanOptions } from './time-off-cli.ts';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** "mon-fri", "mon,wed,fri" or "mon-wed,sat" as ISO weekdays (Monday 1); undefined when not understood. */
export function parseDays(text: string): number[] | undefined {
  const days: number[] = [];
  for (const part of text.toLowerCase().split(',')) {
    const [first, last = first, extra] = part
      .trim()
      .split('-')
      .map((name) => WEEKDAYS.indexOf(name.slice(0, 3)) + 1);
    if (extra !== undefined || !first || !last || last < first) return undefined;
    for (let day = first; day <= last; day++) if (!days.includes(day)) days.push(day);
  }
  return days.sort((a, b) => a - b);
}

/** "09:00-12:30,13:30-17:00" as ranges; undefined when one is not a range. */
export function parseRanges(text: string): [string, string][] | undefined {
  const ranges = text.split(',').map(parseRange);
  return ranges.every((r) => r !== undefined) ? ranges : undefined;
}

// The use case names the API's fields (`hours[3].slot_minutes`); the command line calls them by its own options.
const OPTION_OF_FIELD: Record<string, string> = {
  weekday: 'days',
  start_time: 'hours',
  end_time: 'hours',
  slot_minutes: 'slot',
  room_id: 'room',
};

function inOptionNames(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.kind !== 'invalid' || !error.fields) return error;
  const fields: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.fields)) {
    const name = field.split('.').at(-1) ?? field;
    const option = OPTION_OF_FIELD[name] ?? name;
    fields[option] = [...(fields[option] ?? []), ...messages];
  }
  return invalid(fields);
}

const doctorByEmail = async (app: App, email: string) => (await app.doctors.getDoctorByEmail(email)).id;

const HOURS_COLUMNS: Column[] = [
  { key: 'weekday', header: 'Day' },
  { key: 'start_time', header: 'From' },
  { key: 'end_time', header: 'To' },
  { key: 'slot_minutes', header: 'Slot' },
  { key: 'room', header: 'Room' },
];

function printSchedule(out: Output, schedule: ScheduleJson, format: string | undefined): void {
  const chosen = chosenFormat(format, out);
  const rows = schedule.hours.map((h) => ({
    ...h,
    weekday: chosen === 'table' ? WEEKDAYS[h.weekday - 1] : h.weekday,
    room: chosen === 'json' ? h.room : (h.room?.name ?? null),
  }));
  printRows(out, rows, HOURS_COLUMNS, chosen, { json: { hours: rows, slots: schedule.slots } });
}

export function register(program: Command, { getApp, io }: Cli): void {
  const schedule = program.command('schedule').alias('schedules').description("doctors' working hours and leave");

  schedule
    .command('show')
    .description("a doctor's working hours, range by range")
    .argument('<doctor-email>', "the doctor's sign-in email")
    .addOption(formatOption())
    .action(async (email: string, opts: { format?: string }) => {
      const app = await getApp();
      printSchedule(io.stdout, await app.scheduling.getSchedule(await doctorByEmail(app, email)), opts.format);
    });

  schedule
    .command('set')
    .description("replace a doctor's working hours; appointments already booked keep theirs")
    .argument('<doctor-email>', "the doctor's sign-in email")
    .requiredOption('--days <days>', 'weekdays, e.g. mon-fri or mon,wed,fri')
    .requiredOption('--hours <ranges>', 'working hours, a lunch break between ranges, e.g. 09:00-12:30,13:30-17:00')
    .requiredOption('--slot <minutes>', 'length of one appointment in minutes, e.g. 20')
    .option('--room <id>', 'the room every slot is in (see `medora rooms list`)')
    .addOption(formatOption())
    .action(
      async (email: string, opts: { days: string; hours: string; slot: string; room?: string; format?: string }) => {
        const days = parseDays(opts.days);
        const ranges = parseRanges(opts.hours);
        const problems: FieldErrors = {};
        if (!days) problems.days = ['must be weekdays such as mon-fri or mon,wed,fri'];
        if (!ranges) problems.hours = ['must be ranges such as 09:00-12:30,13:30-17:00'];
        if (!days || !ranges) throw invalid(problems);
        const app = await getApp();
        const doctorId = await doctorByEmail(app, email);
        const hours = days.flatMap((weekday) =>
          ranges.map(([start, end]) => ({
            weekday,
            start_time: start,
            end_time: end,
            slot_minutes: opts.slot,
            room_id: opts.room,
          })),
        );
        const saved = await app.scheduling.replaceSchedule(doctorId, { hours }, cliActor()).catch((error) => {
          throw inOptionNames(error);
        });
        printSchedule(io.stdout, saved, opts.format);
      },
    );

  const leave = schedule.command('leave').description("a doctor's leave: days, or part of each day, without slots");

  withSpanOptions(
    leave
      .command('add')
      .description('add leave; lists the booked visits inside it to move')
      .argument('<doctor-email>', "the doctor's sign-in email"),
    'why (optional)',
  ).action(async (email: string, opts: SpanOptions) => {
    const app = await getApp();
    printAdded(
      io.stdout,
      await app.scheduling.addLeave(await doctorByEmail(app, email), spanBody(opts), cliActor()),
      opts.format,
    );
  });

  leave
    .command('list')
    .description("the doctor's leave and the clinic's closures that end today or later")
    .argument('<doctor-email>', "the doctor's sign-in email")
    .addOption(formatOption())
    .action(async (email: string, opts: { format?: string }) => {
      const app = await getApp();
      printTimeOff(
        io.stdout,
        (await app.scheduling.listTimeOff({ doctor_id: await doctorByEmail(app, email), per_page: 200 })).items,
        opts.format,
      );
    });

  leave
    .command('remove')
    .description('take leave back; its slots are offered again')
    .argument('<id>', 'the id `schedule leave list` shows')
    .addOption(formatOption())
    .action(async (id: string, opts: { format?: string }) => {
      const app = await getApp();
      printTimeOff(io.stdout, [await app.scheduling.removeTimeOff(id, cliActor())], opts.format);
    });
}
