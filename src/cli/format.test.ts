import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { toCsv } from './format.ts';

describe('toCsv', () => {
  it('writes a header of column keys and quotes only the values that need it', () => {
    const columns = [
      { key: 'name', header: 'Name' },
      { key: 'note', header: 'Note' },
      { key: 'cents', header: 'Amount', money: true },
    ];
    const csv = toCsv(
      [
        { name: 'Grey, M.', note: 'said "hi"\nbye', cents: 1050 },
        { name: ' padded', note: null, cents: 0 },
      ],
      columns,
    );
    assert.equal(csv, 'name,note,cents\r\n"Grey, M.","said ""hi""\nbye",1050\r\n" padded",,0\r\n');
  });

  it("defuses text a spreadsheet would run as a formula, as the API's exports do", () => {
    const csv = toCsv(
      [{ name: '=HYPERLINK("http://evil","x")' }, { name: '-2+3' }, { name: '@SUM(A1)' }, { name: -5 }],
      [{ key: 'name', header: 'Name' }],
    );
    assert.equal(csv, 'name\r\n"\'=HYPERLINK(""http://evil"",""x"")"\r\n\'-2+3\r\n\'@SUM(A1)\r\n-5\r\n');
  });
});
