/**
 * A node:test reporter that records how long each test file took, as `{ "file": seconds }` JSON, slowest first, in
 * the file named by TEST_DURATIONS_FILE, so the next run starts the slowest files first (scripts/slowest-first.js)
 * and the README's phase costs can be read. The file is rewritten as each file's tests end, synchronously:
 * --test-force-exit ends the runner before a reporter's last output is flushed. Plain JavaScript: Node 20 loads
 * reporters before `--import tsx` takes effect.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* durations(source) {
  const destination = process.env.TEST_DURATIONS_FILE;
  /** @type {Map<string, number>} */
  const seconds = new Map();
  for await (const event of source) {
    if (!destination || (event.type !== 'test:pass' && event.type !== 'test:fail')) continue;
    const { nesting, file, details } = event.data;
    // A file's time is the sum of its top-level tests and suites (each with its hooks): they run one after another.
    if (nesting !== 0 || !file || details?.duration_ms === undefined) continue;
    const name = relative(process.cwd(), file);
    seconds.set(name, (seconds.get(name) ?? 0) + details.duration_ms / 1000);
    const sorted = [...seconds].sort(([, a], [, b]) => b - a).map(([path, s]) => [path, Math.round(s * 10) / 10]);
    writeFileSync(destination, `${JSON.stringify(Object.fromEntries(sorted), null, 1)}\n`);
  }
  yield '';
}
