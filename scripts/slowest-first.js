// Orders the test files given on stdin slowest first, by the durations the last run recorded
// (scripts/test-durations-reporter.js) in test-results/durations-KIND.json when this machine ran them, else by the
// committed scripts/test-durations.json: a run cut short records only the files it finished. A file with no
// recorded time goes first, as if slow. Starting the slowest files first keeps every process busy to the end,
// instead of one long file running alone at the end.
// Usage: find … | node scripts/slowest-first.js server|browser
import { existsSync, readFileSync } from 'node:fs';

const kind = process.argv[2];
/** @param {string} file @returns {Record<string, number>} */
const secondsIn = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
const seconds = { ...secondsIn('scripts/test-durations.json'), ...secondsIn(`test-results/durations-${kind}.json`) };
const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
const cost = (/** @type {string} */ file) => seconds[file] ?? Number.POSITIVE_INFINITY;
files.sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
process.stdout.write(files.map((file) => `${file}\n`).join(''));
