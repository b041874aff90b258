import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where each test process leaves what the contract test validated, for scripts/contract-coverage.ts. */
export const CONTRACT_RESULTS_DIR = join(import.meta.dirname, '../../test-results/contract');

/** One process's file: answers validated per `'METHOD /path' status`, and requests to routes the document lacks. */
export interface ContractResults {
  validated: Record<string, number>;
  uncovered: Record<string, number>;
}

const results: ContractResults = { validated: {}, uncovered: {} };
let writesAtExit = false;

export function recordValidated(operation: string, status: number): void {
  count(results.validated, `${operation} ${status}`);
}

export function recordUncovered(request: string): void {
  count(results.uncovered, request);
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
  if (writesAtExit) return;
  writesAtExit = true;
  // Once, at exit: the test runner ends a file's process when its tests are done (--test-force-exit included).
  process.once('exit', () => {
    mkdirSync(CONTRACT_RESULTS_DIR, { recursive: true });
    writeFileSync(join(CONTRACT_RESULTS_DIR, `${process.pid}-${Date.now()}.json`), JSON.stringify(results));
  });
}
