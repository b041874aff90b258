import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { parseDays, parseRanges } from './schedule-commands.ts';

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

describe('parseRanges', () => {
  it('reads one range or several, a lunch break between them', () => {
    assert.deepEqual(parseRanges('09:00-17:00'), [['09:00', '17:00']]);
    assert.deepEqual(parseRanges('09:00-12:30, 13:30 - 17:00'), [
      ['09:00', '12:30'],
      ['13:30', '17:00'],
    ]);
  });

  it('refuses anything that is not a list of ranges', () => {
    assert.equal(parseRanges('mornings'), undefined);
    assert.equal(parseRanges('09:00-12:30,'), undefined);
  });
});
