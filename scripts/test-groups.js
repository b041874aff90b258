// Packs the integration test files given on stdin (slowest first, as scripts/slowest-first.js orders them) into
// groups that each run in one process, and prints what the runner should start: the groups' entry files and the
// files that keep a process of their own, slowest first. Starting Node, tsx and the application's modules costs a
// test process about 2 s of CPU before its first test; ninety files paid it ninety times. A file keeps its own
// process when it changes what the process shares (its environment, its handlers, its directory) or when it is
// long enough to balance the runner's workers by itself. Files in a group run one after another, each test still
// bounded by src/testing/node-test.ts, and node:test reports each test under its own file.
// Usage: … | node scripts/slowest-first.js server | node scripts/test-groups.js DIR
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recordedSeconds } from './recorded-durations.js';

/** A group's recorded seconds at most: long enough to halve the processes, short enough to keep the workers even. */
const GROUP_SECONDS = 20;
/** What a file does to the process it shares: it then keeps a process of its own. */
const CHANGES_THE_PROCESS =
  /process\.env\.\w+\s*=[^=]|delete process\.env|process\.(on|once|chdir)\(|process\.exitCode/;

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/test-groups.js DIR');
const seconds = recordedSeconds('server');
const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);

/** @type {{ cost: number, run: string }[]} */
const runs = [];
/** @type {{ cost: number, files: string[] }[]} */
const groups = [];
for (const file of files) {
  const cost = seconds[file];
  if (cost === undefined || cost >= GROUP_SECONDS || CHANGES_THE_PROCESS.test(readFileSync(file, 'utf8'))) {
    runs.push({ cost: cost ?? Number.POSITIVE_INFINITY, run: file });
    continue;
  }
  // First fit, slowest first: each file joins the first group it fits in.
  const group = groups.find((g) => g.cost + cost <= GROUP_SECONDS);
  if (group) {
    group.files.push(file);
    group.cost += cost;
  } else groups.push({ cost, files: [file] });
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
groups.forEach((group, i) => {
  if (group.files.length === 1) {
    runs.push({ cost: group.cost, run: group.files[0] ?? '' });
    return;
  }
  const entry = join(dir, `group-${i + 1}.test.mjs`);
  const imports = group.files.map((file) => `await import(${JSON.stringify(pathToFileURL(resolve(file)).href)});\n`);
  writeFileSync(
    entry,
    `// ${group.files.length} test files in one process (scripts/test-groups.js)\n${imports.join('')}`,
  );
  runs.push({ cost: group.cost, run: entry });
});
runs.sort((a, b) => b.cost - a.cost);
process.stdout.write(runs.map(({ run }) => `${run}\n`).join(''));
