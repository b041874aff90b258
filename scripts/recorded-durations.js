// Each test file's seconds as the last run recorded them (scripts/test-durations-reporter.js) in
// test-results/durations-KIND.json when this machine ran them, else as the committed scripts/test-durations.json
// has them: a run cut short records only the files it finished. Read by scripts/slowest-first.js and
// scripts/test-groups.js.
import { existsSync, readFileSync } from 'node:fs';

/** @param {string} file @returns {Record<string, number>} */
const secondsIn = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});

/** @param {'server' | 'browser'} kind @returns {Record<string, number>} */
export const recordedSeconds = (kind) => ({
  ...secondsIn('scripts/test-durations.json'),
  ...secondsIn(`test-results/durations-${kind}.json`),
});
