import { formatHl7DateTime, type Hl7Context, parseHl7DateTime } from '@medplum/core';
import { clinicInstant } from '../shared/clock.ts';

/**
 * HL7 v2's escape sequences for the delimiters (v2.5.1 chapter 2.7.4), which @medplum/core's parser leaves as
 * written: text put into a field is escaped, text read from one is unescaped.
 */
export function escapeText(text: string, c: Hl7Context): string {
  const escapes: [string, string][] = [
    [c.escapeCharacter, 'E'],
    [c.fieldSeparator, 'F'],
    [c.componentSeparator, 'S'],
    [c.subcomponentSeparator, 'T'],
    [c.repetitionSeparator, 'R'],
  ];
  let out = '';
  for (const char of text.replace(/[\r\n]+/g, ' ')) {
    const code = escapes.find(([d]) => d === char)?.[1];
    out += code ? `${c.escapeCharacter}${code}${c.escapeCharacter}` : char;
  }
  return out;
}

export function unescapeText(text: string, c: Hl7Context): string {
  const by: Record<string, string> = {
    E: c.escapeCharacter,
    F: c.fieldSeparator,
    S: c.componentSeparator,
    T: c.subcomponentSeparator,
    R: c.repetitionSeparator,
    '.br': '\n',
  };
  const e = c.escapeCharacter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${e}(E|F|S|T|R|\\.br)${e}`, 'g'), (_, code: string) => by[code] ?? '');
}

/** An instant as HL7's DTM, in UTC and saying so. */
export const hl7Time = (at: Date) => `${formatHl7DateTime(at)}+0000`;

/** A date as HL7's DT (YYYYMMDD). */
export const hl7Date = (date: string) => date.replaceAll('-', '');

const DTM = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2})(?:\.\d{1,4})?)?)?([+-]\d{4})?$/;

/**
 * An HL7 DTM as an instant: with its offset when it has one, else the clinic's wall-clock time (as a lab analyser in
 * the building writes it); undefined when it is no date and time.
 */
export function readHl7Time(text: string, timeZone: string): Date | undefined {
  const m = DTM.exec(text);
  if (!m) return undefined;
  const [, year, month, day, hour = '00', minute = '00', , offset] = m;
  const date = `${year}-${month}-${day}`;
  if (Number.isNaN(Date.parse(`${date}T${hour}:${minute}:00Z`)) || Number(month) > 12 || Number(hour) > 23)
    return undefined;
  if (offset) {
    const parsed = parseHl7DateTime(text);
    return parsed ? new Date(parsed) : undefined;
  }
  const local = clinicInstant(date, `${hour}:${minute}`, timeZone);
  const seconds = Number(m[6] ?? 0);
  return new Date(local.getTime() + seconds * 1000);
}
