import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError, type FieldErrors } from './errors.ts';
import { readInput } from './read-fields.ts';
import { GenderShape } from './shared-shapes.ts';
import {
  amount,
  array,
  boolean,
  date,
  email,
  id,
  integer,
  nullable,
  number,
  object,
  oneOfValues,
  ref,
  refusedAs,
  text,
} from './wire-schema.ts';

const Form = object(
  {
    name: text(20, { rule: 'line' }),
    note: text(50),
    password: text(12, { rule: 'untrimmed', min: 8 }),
    email: email({ maxLength: 254 }),
    spare_email: nullable(email({ maxLength: 254 })),
    kind: oneOfValues(['a', 'b']),
    gender: ref(GenderShape),
    doctor_id: id(),
    day: date(),
    keep: boolean(),
  },
  { optional: ['note', 'spare_email', 'day', 'keep'] },
);

const good = {
  name: ' Ada ',
  password: ' pass word ',
  email: 'ada@example.com',
  kind: 'a',
  gender: 'female',
  doctor_id: '7',
};

function problems(input: unknown): FieldErrors {
  try {
    readInput(Form, input);
  } catch (error) {
    assert.ok(error instanceof DomainError && error.kind === 'invalid');
    return error.fields ?? {};
  }
  assert.fail('the input was read');
}

describe('reading a request by its schema', () => {
  it('reads it as Validator does: text trimmed, passwords as typed, ids from numeric text, absent optional fields left out', () => {
    assert.deepEqual(readInput(Form, good), {
      name: 'Ada',
      password: ' pass word ',
      email: 'ada@example.com',
      kind: 'a',
      gender: 'female',
      doctor_id: 7,
      keep: false,
    });
    assert.deepEqual(readInput(Form, { ...good, note: '  ', spare_email: null, day: '2026-02-28', keep: 'on' }), {
      ...readInput(Form, good),
      day: '2026-02-28',
      keep: true,
    });
  });

  it('names every bad field in one answer, with the messages Validator gives', () => {
    assert.deepEqual(
      problems({
        name: 'A\nB',
        note: 'x'.repeat(51),
        password: 'short',
        email: 'nope',
        spare_email: 'nope',
        kind: 'c',
        gender: 'x',
        doctor_id: 0,
        day: '2026-02-30',
      }),
      {
        name: ['must be one line, without control characters'],
        note: ['must be at most 50 characters'],
        password: ['must be at least 8 characters'],
        email: ['must be a valid email address'],
        spare_email: ['must be a valid email address'],
        kind: ['must be one of a, b'],
        gender: ['must be one of male, female, other'],
        doctor_id: ['must be a valid id'],
        day: ['must be a date as yyyy-MM-dd'],
      },
    );
    assert.deepEqual(problems(undefined), {
      name: ['is required'],
      password: ['is required'],
      email: ['is required'],
      kind: ['is required'],
      gender: ['is required'],
      doctor_id: ['is required'],
    });
  });

  it('reads an amount of money as text or a number into a decimal with two places, positive unless 0 is allowed', () => {
    const Payment = object({ amount: amount(100_000) }, { optional: ['amount'] });
    const Visit = object({ cost: amount(100_000, { zero: true }) });
    assert.deepEqual(readInput(Payment, { amount: ' 12.5 ' }), { amount: '12.50' });
    assert.deepEqual(readInput(Payment, { amount: 7 }), { amount: '7.00' });
    assert.deepEqual(readInput(Payment, {}), {});
    assert.deepEqual(readInput(Visit, { cost: 0 }), { cost: '0.00' });
    const refused = (schema: typeof Payment | typeof Visit, input: unknown) => {
      try {
        readInput(schema, input);
      } catch (error) {
        assert.ok(error instanceof DomainError);
        return error.fields;
      }
      assert.fail('the amount was read');
    };
    const positive = ['must be a positive amount with at most 2 decimals, at most 1000.00'];
    assert.deepEqual(refused(Payment, { amount: '0' }), { amount: positive });
    assert.deepEqual(refused(Payment, { amount: '1.234' }), { amount: positive });
    assert.deepEqual(refused(Payment, { amount: '1000.01' }), { amount: positive });
    assert.deepEqual(refused(Visit, { cost: '-1' }), {
      cost: ['must be a non-negative amount with at most 2 decimals'],
    });
    assert.deepEqual(refused(Visit, { cost: '1000.01' }), { cost: ['must be at most 1000.00'] });
    assert.deepEqual(refused(Visit, {}), { cost: ['is required'] });
  });

  it('refuses text no column can store and control characters outside a line break or tab', () => {
    assert.deepEqual(problems({ ...good, note: 'a\u0000b', password: 'pass\ud800word' }), {
      note: ['contains a character that cannot be stored (a NUL or an unpaired surrogate)'],
      password: ['contains a character that cannot be stored (a NUL or an unpaired surrogate)'],
    });
    assert.deepEqual(problems({ ...good, note: 'bell\u0007' }), { note: ['must not contain control characters'] });
    assert.equal(readInput(Form, { ...good, note: 'two\nlines\tand a tab' }).note, 'two\nlines\tand a tab');
  });

  it('reads numbers (JSON or numeric text) within their bounds and lists of distinct ids', () => {
    const Measure = object(
      { value: number({ minimum: -10, maximum: 10 }), test_ids: array(id(), { minItems: 1, maxItems: 3 }) },
      { optional: [] },
    );
    assert.deepEqual(readInput(Measure, { value: '-2.5', test_ids: [3, 1] }), { value: -2.5, test_ids: [3, 1] });
    const refused = (input: unknown) => {
      try {
        readInput(Measure, input);
      } catch (error) {
        assert.ok(error instanceof DomainError);
        return error.fields;
      }
      assert.fail('the input was read');
    };
    assert.deepEqual(refused({ value: 'ten', test_ids: ['1'] }), {
      value: ['must be a number'],
      test_ids: ['must be a list of ids'],
    });
    assert.deepEqual(refused({ value: 11, test_ids: [] }), {
      value: ['must be at most 10'],
      test_ids: ['must name at least 1'],
    });
    assert.deepEqual(refused({ value: 0, test_ids: [2, 2] }), { test_ids: ['must not name one id twice'] });
    assert.deepEqual(refused({}), { value: ['is required'], test_ids: ['is required'] });
  });

  it('tells every problem of a field refused in its own words as that one message', () => {
    const Stay = object({
      nights: refusedAs(integer({ minimum: 1, maximum: 365 }), 'must be a whole number of nights from 1 to 365'),
      reason: text(10),
    });
    assert.deepEqual(readInput(Stay, { nights: '3', reason: 'Fever' }), { nights: 3, reason: 'Fever' });
    const own = { nights: ['must be a whole number of nights from 1 to 365'] };
    for (const nights of [undefined, 0, 2.5, 'three', 366]) {
      try {
        readInput(Stay, { nights, reason: 'Fever' });
        assert.fail(`${nights} was read`);
      } catch (error) {
        assert.ok(error instanceof DomainError);
        assert.deepEqual(error.fields, own);
      }
    }
  });
});
