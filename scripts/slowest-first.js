// Orders the test files given on stdin slowest first, by the durations recorded (scripts/recorded-durations.js).
// A file with no recorded time goes first, as if slow. Starting the slowest files first keeps every process busy to the end,
// instead of one long file running alone at the end.
// Usage: find … | node scripts/slowest-first.js server|browser
import { readFileSync } from 'node:fs';
import { recordedSeconds } from './recorded-durations.js';

const kind = process.argv[2] === 'browser' ? 'browser' : 'server';
const seconds = recordedSeconds(kind);
const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
const cost = (/** @type {string} */ file) => seconds[file] ?? Number.POSITIVE_INFINITY;
files.sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
process.stdout.write(files.map((file) => `${file}\n`).join(''));
