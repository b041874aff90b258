/** Assertions that narrow, so a test reads a row or an element without `!`. */
import assert from 'node:assert/strict';
import { DomainError } from '../domain/shared/errors.ts';

/** The one element of `items`; fails the test when there are none or several. */
export function only<T>(items: readonly T[], what = 'element'): T {
  const [item, ...rest] = items;
  assert.ok(item !== undefined && rest.length === 0, `expected exactly one ${what}, got ${items.length}`);
  return item;
}

/** The first element of `items`; fails the test when there is none. */
export function first<T>(items: readonly T[], what = 'element'): T {
  return at(items, 0, what);
}

/** The element at `index` (negative counts from the end); fails the test when it is missing. */
export function at<T>(items: readonly T[], index: number, what = 'element'): T {
  const item = items.at(index);
  assert.ok(item !== undefined, `expected a ${what} at ${index}, got ${items.length} of them`);
  return item;
}

/** `value`, failing the test when it is undefined or null. */
export function present<T>(value: T | null | undefined, what = 'value'): T {
  assert.ok(value != null, `expected a ${what}`);
  return value;
}

/** The two elements of `items`; fails the test unless there are exactly two. */
export function two<T>(items: readonly T[], what = 'element'): [T, T] {
  const [a, b, ...rest] = items;
  assert.ok(
    a !== undefined && b !== undefined && rest.length === 0,
    `expected exactly two ${what}s, got ${items.length}`,
  );
  return [a, b];
}

/** The DomainError `promise` rejects with, of `kind` (and `code`, when given); fails the test otherwise. */
export async function rejects(promise: Promise<unknown>, kind: string, code?: string): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind);
    if (code) assert.equal(error.code, code);
    return error;
  }
  assert.fail(`expected a ${kind} error`);
}
