/**
 * node:test with every test and hook bounded in time; test files import it instead of node:test. Node 20's
 * --test-timeout bounds only a whole file, from the runner, and names no test; this bounds each test and hook
 * inside the file, so a stuck one fails under its own name and the rest of the file goes on. The bound is
 * TEST_TIMEOUT_S of scripts/test-lib.sh, handed over in MEDORA_TEST_TIMEOUT_MS; a file run by hand is unbounded.
 */
import * as nodeTest from 'node:test';

export { describe, mock } from 'node:test';

const bound = Number(process.env.MEDORA_TEST_TIMEOUT_MS) || undefined;

/**
 * The arguments of a test, `it([name][, options][, fn])`, or of a hook, `before(fn[, options])`, with `timeout`
 * in their options unless they name their own.
 */
function bounded(args: unknown[], optionsGoBeforeFn: boolean): unknown[] {
  if (bound === undefined) return args;
  const optionsAt = args.findIndex((arg) => typeof arg === 'object' && arg !== null);
  if (optionsAt >= 0)
    return args.map((arg, index) => (index === optionsAt ? { timeout: bound, ...(arg as object) } : arg));
  const fnAt = args.findIndex((arg) => typeof arg === 'function');
  const insertAt = !optionsGoBeforeFn ? args.length : fnAt >= 0 ? fnAt : args.length;
  return [...args.slice(0, insertAt), { timeout: bound }, ...args.slice(insertAt)];
}

/** `fn` taking the same arguments, bounded; node:test's overloads are kept as they are. */
function boundedFn<F extends (...args: never[]) => unknown>(fn: F, kind: 'test' | 'hook'): F {
  const wrapped = (...args: unknown[]): unknown => Reflect.apply(fn, undefined, bounded(args, kind === 'test'));
  return wrapped as unknown as F;
}

export const it: typeof nodeTest.it = Object.assign(boundedFn(nodeTest.it, 'test'), {
  skip: boundedFn(nodeTest.it.skip, 'test'),
  todo: boundedFn(nodeTest.it.todo, 'test'),
  only: boundedFn(nodeTest.it.only, 'test'),
});
export const before = boundedFn(nodeTest.before, 'hook');
export const after = boundedFn(nodeTest.after, 'hook');
export const beforeEach = boundedFn(nodeTest.beforeEach, 'hook');
export const afterEach = boundedFn(nodeTest.afterEach, 'hook');
