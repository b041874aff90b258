// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are source code the scanner is tested on
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from './testing/node-test.ts';

const SRC = import.meta.dirname;
/** Where dates and times are shown: the UI (printed pages included) and the e-mails. */
const SHOWN = ['web', 'domain/notifications'];
// ics.ts reads a zone's UTC offset for the calendar files' times, which no one reads as words.
const NOT_SHOWN = new Set(['domain/notifications/ics.ts']);

// Not after `=` (an input's value) nor `T` (an ISO instant built from a date and a time).
const HAND_FORMATTED: [string, RegExp][] = [
  ['Intl.DateTimeFormat', /\bIntl\.DateTimeFormat\b/],
  ['toLocaleString and its kin', /\.toLocale(Date|Time)?String\(/],
  ['a wire time or date-time cut by hand', /\b\w+_(time|at|until)\.slice\(/],
  ['an HH:mm time shown raw', /(?<![=T$])\$?\{\s*[\w.]+\.(start_time|end_time|startTime|endTime)\s*\}/],
  [
    'a yyyy-MM-dd date shown raw',
    /(?<![=$])\{\s*\w+\.(\w+_)?(date|birthdate)\s*(\?\?|\|\||\})|\b(cell|text):\s*\(\w+\)\s*=>\s*`?(\$\{\s*)?\w+\.(\w+_)?(date|birthdate)\b(?!\s*[.(=!<>?&|])/,
  ],
  ['a date cut by hand', /\b\w*(date|day)\.slice\(/i],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'e2e' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every `file:line: what` that formats a date or time by hand instead of through domain/shared/date-format.ts. */
export function handFormatted(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      HAND_FORMATTED.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${index + 1}: ${what}`),
    );
}

describe('dates and times on screens, printed pages and e-mails', () => {
  it('are all written by date-format.ts, in the clinic locale', () => {
    const found = SHOWN.flatMap((dir) => sourceFiles(join(SRC, dir)))
      .map((path) => relative(SRC, path))
      .filter((file) => !NOT_SHOWN.has(file))
      .flatMap((file) => handFormatted(file, readFileSync(join(SRC, file), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('catches each way of formatting by hand', () => {
    const lines = [
      "new Date(at).toLocaleTimeString([], { hour: '2-digit' })",
      'new Intl.DateTimeFormat(locale)',
      '`until ${offer.hold_until.slice(11)}`',
      '<strong>{appointment.start_time}</strong>',
      '`Check in ${a.patient_name} at ${a.start_time}`',
      "{ header: 'Date', cell: (b) => b.billing_date },",
      '({bill.billing_date})',
      'cell: (a) => `${a.date}, ${formatTime(a.start_time)}`',
      '{d.date.slice(5)}',
      "<dd>{patient.birthdate || 'N/A'}</dd>",
    ];
    assert.equal(handFormatted('x.tsx', lines.join('\n')).length, lines.length);
    assert.deepEqual(handFormatted('x.tsx', '<input value={form.start_time} />\n{formatTime(a.start_time)}'), []);
    assert.deepEqual(
      handFormatted(
        'x.tsx',
        '<g key={d.date}>\n{formatDate(b.billing_date)}\n(a) => a.date === today\nrowKey={(d) => `${d.date} ${d.id}`}',
      ),
      [],
    );
  });
});
