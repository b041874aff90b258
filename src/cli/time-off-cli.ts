import type { Command } from 'commander';
import type { TimeOffAddedJson } from '../domain/scheduling/time-off-use-cases.ts';
import type { TimeOffJson } from '../domain/scheduling/time-off.ts';
import { invalid } from '../domain/shared/errors.ts';
import { writeLine, type Output } from './context.ts';
import { chosenFormat, formatOption, printRows, type Column } from './format.ts';

/** "09:00-12:30" as its two times; undefined when it is not a range. */
export function parseRange(text: string): [string, string] | undefined {
  const match = /^\s*(\S+?)\s*-\s*(\S+)\s*$/.exec(text);
  return match?.[1] && match[2] ? [match[1], match[2]] : undefined;
}

export interface SpanOptions {
  from: string;
  to?: string;
  hours?: string;
  reason?: string;
  format?: string;
}

/** The options of `schedule leave add` and `closures add`. */
export const withSpanOptions = (command: Command, reason: string) =>
  command
    .requiredOption('--from <date>', 'the first day, yyyy-MM-dd')
    .option('--to <date>', 'the last day (default: the first)')
    .option('--hours <from-to>', 'only this part of each day, e.g. 13:00-17:00')
    .option('--reason <text>', reason)
    .addOption(formatOption());

/** The request body of leave or a closure from the options. */
export function spanBody(opts: SpanOptions): Record<string, unknown> {
  const hours = opts.hours === undefined ? undefined : parseRange(opts.hours);
  if (opts.hours !== undefined && !hours) throw invalid({ hours: ['must be a range such as 13:00-17:00'] });
  return { starts_on: opts.from, ends_on: opts.to, start_time: hours?.[0], end_time: hours?.[1], reason: opts.reason };
}

const TIME_OFF_COLUMNS: Column[] = [
  { key: 'id', header: 'Id' },
  { key: 'kind', header: 'Kind' },
  { key: 'doctor', header: 'Doctor' },
  { key: 'starts_on', header: 'From' },
  { key: 'ends_on', header: 'To' },
  { key: 'hours', header: 'Hours' },
  { key: 'reason', header: 'Reason' },
];

const flat = (t: TimeOffJson) => ({
  ...t,
  doctor: t.doctor?.name ?? 'whole clinic',
  hours: t.start_time ? `${t.start_time}-${t.end_time}` : 'all day',
});

export function printTimeOff(out: Output, items: TimeOffJson[], format: string | undefined): void {
  printRows(out, items.map(flat), TIME_OFF_COLUMNS, chosenFormat(format, out), { json: { time_off: items } });
}

const VISIT_COLUMNS: Column[] = [
  { key: 'id', header: 'Visit' },
  { key: 'date', header: 'Date' },
  { key: 'start_time', header: 'Start' },
  { key: 'doctor_name', header: 'Doctor' },
  { key: 'patient_name', header: 'Patient' },
];

/** The new time off, then the visits inside it the desk must move (json: the whole answer). */
export function printAdded(out: Output, added: TimeOffAddedJson, format: string | undefined): void {
  const chosen = chosenFormat(format, out);
  if (chosen === 'json') {
    writeLine(out, JSON.stringify(added, null, 2));
    return;
  }
  printRows(out, [flat(added.time_off)], TIME_OFF_COLUMNS, chosen);
  if (chosen === 'table') writeLine(out, `${added.visits_to_move_total} booked visit(s) inside it to move:`);
  printRows(out, added.visits_to_move, VISIT_COLUMNS, chosen);
}
