import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { csvRecord } from './csv.ts';

describe('csvRecord', () => {
  it('quotes commas, quotes and line breaks, and leaves empty values empty', () => {
    assert.equal(
      csvRecord(['a,b', 'say "hi"', 'two\nlines', null, undefined, 7]),
      '"a,b","say ""hi""","two\nlines",,,7\r\n',
    );
  });

  it('defuses text a spreadsheet would run as a formula, but not negative numbers', () => {
    assert.equal(
      csvRecord(['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', '\tx', -3]),
      `"'=HYPERLINK(""http://x"")",'+1,'-2,'@SUM(A1),'\tx,-3\r\n`,
    );
  });
});
