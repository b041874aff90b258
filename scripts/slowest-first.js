// Orders the test files given on stdin slowest first, by the durations the last run recorded
// (scripts/test-durations-reporter.js): test-results/durations-KIND.json when this machine ran them, else the
// committed scripts/test-durations.json. A file with no recorded time goes first, as if slow. Starting the slowest
// files first keeps every process busy to the end, instead of one long file running alone at the end.
// Usage: find … | node scripts/slowest-first.js server|browser
import { existsSync, readFileSync } from 'node:fs';

const kind = process.argv[2];
const recorded = [`test-results/durations-${kind}.json`, 'scripts/test-durations.json'].find((file) =>
  existsSync(file),
);
/** @type {Record<string, number>} */
const seconds = recorded ? JSON.parse(readFileSync(recorded, 'utf8')) : {};
const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
const cost = (/** @type {string} */ file) => seconds[file] ?? Number.POSITIVE_INFINITY;
files.sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
process.stdout.write(files.map((file) => `${file}\n`).join(''));
