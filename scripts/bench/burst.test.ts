import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { tallyBurst, type PatientBooking } from './burst.ts';

const booking = (over: Partial<PatientBooking>): PatientBooking => ({
  tries: 1,
  last: '201',
  at: 0,
  unavailable: [],
  ...over,
});

describe('a burst of bookings', () => {
  it('counts the first tries, the retries, what it ended with and every 503 on the way', () => {
    const tally = tallyBurst([
      booking({}),
      booking({}),
      booking({ tries: 2, unavailable: [{ code: 'database_busy', heldMs: 3000 }] }),
      booking({
        tries: 3,
        unavailable: [
          { code: 'database_busy', heldMs: 3010 },
          { code: 'database_busy', heldMs: 2990 },
        ],
      }),
      booking({ tries: 1, last: '409 slot_taken' }),
    ]);
    assert.equal(tally.firstTry, 2);
    assert.equal(tally.booked, 4);
    assert.equal(tally.retries, 3);
    assert.deepEqual(tally.refused, { '409 slot_taken': 1 });
    assert.deepEqual(tally.unavailable, { database_busy: { count: 3, medianHeldMs: 3000, maxHeldMs: 3010 } });
  });
});
