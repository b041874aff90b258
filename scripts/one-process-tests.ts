/**
 * Runs the test files named on the command line in this one process, one after another: for the unit tests, which
 * need no database, server or browser, a process each cost ten times the tests themselves (starting Node, tsx and
 * the same modules again). node:test reports them as one run and sets a failing exit code if any test fails.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(resolve(file)).href);
