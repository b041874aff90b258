#!/usr/bin/env node
// Runs the CLI's bundle, which `make build` (scripts/cli-bundle.ts) writes.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli/medora.js', import.meta.url);
if (!existsSync(bundle)) {
  console.error('medora: dist/cli/medora.js is missing; run `make build` first');
  process.exit(1);
}
/** @type {typeof import('../src/cli/main.ts')} */
const { main } = await import(bundle.href);
// process.stdin is opened only if a command reads it: creating the stream costs every other command time.
const stdin = { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() };
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin });
