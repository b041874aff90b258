import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatDayTime,
  formatLongDate,
  formatMonthDay,
  formatTime,
  supportedLocale,
} from './date-format.ts';

describe('dates and times in the clinic locale', () => {
  it('speaks en-US with a 12-hour clock', () => {
    assert.equal(formatLongDate('2030-06-04', 'en-US'), 'Tuesday, June 4, 2030');
    assert.equal(formatDate('2030-06-04', 'en-US'), 'Jun 4, 2030');
    assert.equal(formatDay('2030-06-04', 'en-US'), 'Tue, Jun 4');
    assert.equal(formatMonthDay('2030-06-04', 'en-US'), 'Jun 4');
    assert.equal(formatTime('13:30', 'en-US'), '1:30 PM');
    assert.equal(formatTime('00:05:00', 'en-US'), '12:05 AM');
    assert.equal(formatDateTime('2030-06-03T06:00:00Z', 'en-US', 'Europe/Berlin'), 'Jun 3, 2030, 8:00 AM');
    assert.equal(formatDayTime('2030-06-04 13:02', 'en-US'), 'Tue, Jun 4, 1:02 PM');
  });

  it('speaks en-GB with a 24-hour clock', () => {
    assert.equal(formatLongDate('2030-06-04', 'en-GB'), 'Tuesday, 4 June 2030');
    assert.equal(formatDay('2030-06-04', 'en-GB'), 'Tue 4 Jun');
    assert.equal(formatMonthDay('2030-06-04', 'en-GB'), '4 Jun');
    assert.equal(formatTime('13:30', 'en-GB'), '13:30');
    assert.equal(formatTime('00:05', 'en-GB'), '00:05');
    assert.equal(formatDateTime('2030-06-03T06:00:00Z', 'en-GB', 'Europe/Berlin'), '3 Jun 2030, 08:00');
  });

  it('speaks de-DE', () => {
    assert.equal(formatLongDate('2030-06-04', 'de-DE'), 'Dienstag, 4. Juni 2030');
    assert.equal(formatTime('13:30', 'de-DE'), '13:30');
    assert.equal(formatDateTime('2030-06-03T06:00:00Z', 'de-DE', 'Europe/Berlin'), '03.06.2030, 08:00');
  });

  it('keeps a calendar day the same day in every zone, and an instant on the clinic clock', () => {
    assert.equal(formatDay('2030-12-31', 'en-US'), 'Tue, Dec 31');
    assert.equal(formatDateTime('2030-06-03T23:30:00Z', 'en-US', 'America/New_York'), 'Jun 3, 2030, 7:30 PM');
    assert.equal(formatDateTime('2030-06-03T23:30:00Z', 'en-US', 'Europe/Berlin'), 'Jun 4, 2030, 1:30 AM');
  });

  it('spells a supported tag as Intl does and refuses one it cannot format in', () => {
    assert.equal(supportedLocale('en-gb'), 'en-GB');
    assert.equal(supportedLocale('de-DE'), 'de-DE');
    assert.equal(supportedLocale('not a tag'), undefined);
    assert.equal(supportedLocale('xx-nope'), undefined);
  });
});
