#!/usr/bin/env node
// Runs the CLI's esbuild bundle, building it first when it is missing or older than its sources.
import { pathToFileURL } from 'node:url';
import { buildCli, cliBundleIsFresh, CLI_BUNDLE } from '../scripts/cli-bundle.js';

if (!cliBundleIsFresh()) await buildCli();
/** @type {typeof import('../src/cli/main.ts')} */
const { main } = await import(pathToFileURL(CLI_BUNDLE).href);
// process.stdin is opened only if a command reads it: creating the stream costs every other command time.
const stdin = { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() };
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin });
