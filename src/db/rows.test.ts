import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError, ensure, notFound } from '../domain/shared/errors.ts';
import { onlyRow, readBack } from './rows.ts';

describe('narrowing a row', () => {
  it('answers the one row, a 409 changed_meanwhile for none, and a bug for several', () => {
    assert.deepEqual(onlyRow([{ id: 1 }]), { id: 1 });
    assert.throws(
      () => onlyRow([], 'The appointment'),
      (error: unknown) =>
        error instanceof DomainError &&
        error.kind === 'conflict' &&
        error.code === 'changed_meanwhile' &&
        /^The appointment was changed or removed meanwhile/.test(error.message),
    );
    assert.throws(
      () => onlyRow([{ id: 1 }, { id: 2 }]),
      (error: unknown) => !(error instanceof DomainError) && /expected exactly one row, got 2/.test(String(error)),
    );
    assert.throws(
      () => readBack(undefined, 'A bill'),
      (error: unknown) => error instanceof DomainError && error.code === 'changed_meanwhile',
    );
  });

  it('ensure answers a present value, falsy ones included, and throws the error given for a missing one', () => {
    assert.equal(
      ensure(0, () => notFound('Zero')),
      0,
    );
    assert.equal(
      ensure('', () => notFound('Empty')),
      '',
    );
    assert.throws(
      () => ensure(null, () => notFound('Patient')),
      (error: unknown) =>
        error instanceof DomainError && error.kind === 'not_found' && error.message === 'Patient not found',
    );
  });
});
