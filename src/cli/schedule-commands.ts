import type { Command } from 'commander';
import type { App } from '../app.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { DomainError, invalid, type FieldErrors } from '../domain/shared/errors.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';
import type { Cli, Output } from './context.ts';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** "mon-fri", "mon,wed,fri" or "mon-wed,sat" as ISO weekdays (Monday 1); undefined when not understood. */
export function parseDays(text: string): number[] | undefined {
  const days: number[] = [];
  for (const part of text.toLowerCase().split(',')) {
    const [first, last = first, extra] = part.trim().split('-').map((name) => WEEKDAYS.indexOf(name.slice(0, 3)) + 1);
    if (extra !== undefined || !first || !last || last < first) return undefined;
    for (let day = first; day <= last; day++) if (!days.includes(day)) days.push(day);
  }
  return days.sort((a, b) => a - b);
}

// The use case names the API's fields; the command line calls them by its own options.
const OPTION_OF_FIELD: Record<string, string> = { days: 'days', start_time: 'hours', end_time: 'hours', slot_minutes: 'slot', room_id: 'room' };

function inOptionNames(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.kind !== 'invalid' || !error.fields) return error;
  const fields: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.fields)) (fields[OPTION_OF_FIELD[field] ?? field] ??= []).push(...messages);
  return invalid(fields);
}

const doctorByEmail = async (app: App, email: string) => (await app.doctors.getDoctorByEmail(email)).id;

const SLOT_COLUMNS: Column[] = [
  { key: 'weekday', header: 'Day' },
  { key: 'start_time', header: 'From' },
  { key: 'end_time', header: 'To' },
  { key: 'room', header: 'Room' },
];

function printSchedule(
  out: Output,
  schedule: { slots: { weekday: number; start_time: string; end_time: string; room: { name: string } | null }[] },
  format: string | undefined,
): void {
  const chosen = chosenFormat(format, out);
  const rows = schedule.slots.map((s) => ({
    ...s,
    weekday: chosen === 'table' ? WEEKDAYS[s.weekday - 1] : s.weekday,
    room: chosen === 'json' ? s.room : (s.room?.name ?? null),
  }));
  printRows(out, rows, SLOT_COLUMNS, chosen, { json: { slots: rows } });
}

export function register(program: Command, { getApp, io }: Cli): void {
  const schedules = program.command('schedules').description("doctors' weekly patterns of bookable slots");

  schedules
    .command('show')
    .description("a doctor's current weekly slots")
    .argument('<doctor-email>', "the doctor's sign-in email")
    .addOption(formatOption())
    .action(async (email: string, opts: { format?: string }) => {
      const app = await getApp();
      printSchedule(io.stdout, await app.scheduling.getSchedule(await doctorByEmail(app, email)), opts.format);
    });

  schedules
    .command('set')
    .description("replace a doctor's weekly pattern with back-to-back slots; appointments already booked keep theirs")
    .argument('<doctor-email>', "the doctor's sign-in email")
    .requiredOption('--days <days>', 'weekdays, e.g. mon-fri or mon,wed,fri')
    .requiredOption('--hours <from-to>', 'working hours, e.g. 09:00-17:00')
    .requiredOption('--slot <minutes>', 'length of one appointment in minutes, e.g. 30')
    .option('--room <id>', 'the room every slot is in (see `medora rooms list`)')
    .addOption(formatOption())
    .action(async (email: string, opts: { days: string; hours: string; slot: string; room?: string; format?: string }) => {
      const days = parseDays(opts.days);
      const hours = /^\s*(\S+)\s*-\s*(\S+)\s*$/.exec(opts.hours);
      const problems: FieldErrors = {};
      if (!days) problems.days = ['must be weekdays such as mon-fri or mon,wed,fri'];
      if (!hours) problems.hours = ['must be a range such as 09:00-17:00'];
      if (!days || !hours) throw invalid(problems);
      const app = await getApp();
      const doctorId = await doctorByEmail(app, email);
      const body = { days, start_time: hours[1], end_time: hours[2], slot_minutes: opts.slot, room_id: opts.room };
      const schedule = await app.scheduling.replaceSchedule(doctorId, body, cliActor()).catch((error) => {
        throw inOptionNames(error);
      });
      printSchedule(io.stdout, schedule, opts.format);
    });
}
