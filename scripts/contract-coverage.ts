// What the contract test saw over a run of the server tests: how many answers it validated against the OpenAPI
// document, and which operations no test's answer reached. Fails naming those, and any route the document lacks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '../src/http/openapi/document.ts';
import { CONTRACT_RESULTS_DIR, type ContractResults } from '../src/testing/contract-coverage.ts';

const files = existsSync(CONTRACT_RESULTS_DIR)
  ? readdirSync(CONTRACT_RESULTS_DIR).filter((name) => name.endsWith('.json'))
  : [];
const validated = new Map<string, number>();
const uncovered = new Map<string, number>();
for (const name of files) {
  const results = JSON.parse(readFileSync(join(CONTRACT_RESULTS_DIR, name), 'utf8')) as ContractResults;
  for (const [key, count] of Object.entries(results.validated)) validated.set(key, (validated.get(key) ?? 0) + count);
  for (const [key, count] of Object.entries(results.uncovered)) uncovered.set(key, (uncovered.get(key) ?? 0) + count);
}

const operations = Object.entries(openApiDocument().paths).flatMap(([path, byMethod]) =>
  Object.keys(byMethod).map((method) => `${method.toUpperCase()} ${path}`),
);
// A key is `'METHOD /path status'`: the operation is all but its last word.
const reached = new Set([...validated.keys()].map((key) => key.slice(0, key.lastIndexOf(' '))));
const never = operations.filter((operation) => !reached.has(operation));
const answers = [...validated.values()].reduce((sum, count) => sum + count, 0);

console.log(
  `contract: ${answers} answers validated, ${operations.length - never.length} of ${operations.length} operations covered (${files.length} test processes)`,
);
if (never.length > 0) console.error(`operations no test's answer reached:\n  ${never.join('\n  ')}`);
if (uncovered.size > 0)
  console.error(`requests to routes the document lacks:\n  ${[...uncovered.keys()].join('\n  ')}`);
if (never.length > 0 || uncovered.size > 0) process.exit(1);
