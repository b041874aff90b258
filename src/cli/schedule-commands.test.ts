import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { parseDays } from './schedule-commands.ts';

describe('parseDays', () => {
  it('reads ranges and lists of weekday names as ISO weekdays', () => {
    assert.deepEqual(parseDays('mon-fri'), [1, 2, 3, 4, 5]);
    assert.deepEqual(parseDays('Sat,mon-wed, monday'), [1, 2, 3, 6]);
    assert.deepEqual(parseDays('sun'), [7]);
  });

  it('refuses unknown names and backwards ranges', () => {
    assert.equal(parseDays('someday'), undefined);
    assert.equal(parseDays('fri-mon'), undefined);
    assert.equal(parseDays('mon-tue-wed'), undefined);
    assert.equal(parseDays(''), undefined);
  });
});
