import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { formatOf, parseImport } from './parse.ts';
import { first } from '../../testing/assert.ts';

const COLUMNS = ['name', 'email', 'department_name'];
/** The first message an invalid-file error gives for `field`. */
const messageOf = (error: unknown, field: string) => {
  assert.ok(error instanceof DomainError);
  return first(error.fields?.[field] ?? [], `message for ${field}`);
};

describe('parseImport (CSV)', () => {
  it('reads quoted values with commas, doubled quotes and line breaks, naming each row by the line it starts on', () => {
    const csv =
      '\uFEFFName,EMAIL,Department Name\r\n"Grey, Meredith",m@x.test,"Say ""hi""\r\nthere"\r\n\r\nBen,b@x.test,\n';
    assert.deepEqual(parseImport(csv, 'csv', COLUMNS), [
      { where: 'line 2', fields: { name: 'Grey, Meredith', email: 'm@x.test', department_name: 'Say "hi"\r\nthere' } },
      { where: 'line 5', fields: { name: 'Ben', email: 'b@x.test' } },
    ]);
  });

  it('reads a last line without a line break', () => {
    assert.deepEqual(parseImport('name\nA', 'csv', COLUMNS), [{ where: 'line 2', fields: { name: 'A' } }]);
  });

  it('refuses unknown columns, a row with more values than the header, and an unclosed quote', () => {
    assert.throws(
      () => parseImport('name,mail\nA,a@x\n', 'csv', COLUMNS),
      (e) => /unknown column "mail"/.test(messageOf(e, 'file')),
    );
    assert.throws(
      () => parseImport('name\nA,extra\n', 'csv', COLUMNS),
      (e) => /has 2 values/.test(messageOf(e, 'line 2')),
    );
    assert.throws(
      () => parseImport('name\n"A\n', 'csv', COLUMNS),
      (e) => /never closed/.test(messageOf(e, 'line 2')),
    );
  });

  it('refuses a file with no rows', () => {
    assert.throws(
      () => parseImport('name,email\n\n', 'csv', COLUMNS),
      (e) => /no rows/.test(messageOf(e, 'file')),
    );
  });
});

describe('parseImport (JSON)', () => {
  it('names rows as items counted from 1 and turns numbers into text', () => {
    assert.deepEqual(parseImport('[{"Name":"A","email":null},{"name":7}]', 'json', COLUMNS), [
      { where: 'item 1', fields: { name: 'A' } },
      { where: 'item 2', fields: { name: '7' } },
    ]);
  });

  it('refuses malformed JSON, a non-array and a non-object item', () => {
    assert.throws(
      () => parseImport('[{', 'json', COLUMNS),
      (e) => /is not valid JSON/.test(messageOf(e, 'file')),
    );
    assert.throws(
      () => parseImport('{"name":"A"}', 'json', COLUMNS),
      (e) => /JSON array/.test(messageOf(e, 'file')),
    );
    assert.throws(
      () => parseImport('[{"name":"A"},"B"]', 'json', COLUMNS),
      (e) => messageOf(e, 'item 2') === 'must be an object',
    );
  });
});

describe('formatOf', () => {
  it('takes .json files as JSON and everything else as CSV', () => {
    assert.equal(formatOf('staff.JSON'), 'json');
    assert.equal(formatOf('staff.csv'), 'csv');
    assert.equal(formatOf('staff.txt'), 'csv');
  });
});
