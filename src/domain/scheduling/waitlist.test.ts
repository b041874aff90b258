import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { heldFromOthers, holdUntil, type Hold } from './waitlist.ts';

const ZONE = 'Europe/Berlin';

describe('holds', () => {
  const hold = (patientId: number): Hold => ({
    offerId: patientId,
    entryId: patientId,
    patientId,
    date: '2030-03-25',
    startTime: '09:00',
    endTime: '09:30',
  });

  it("count as taken for everyone but the offered patient, and for staff, who have no patient's id", () => {
    assert.deepEqual(heldFromOthers([hold(1), hold(2)], 1), [hold(2)]);
    assert.deepEqual(heldFromOthers([hold(1)], undefined), [hold(1)]);
  });

  it("end at the clinic's wall-clock time, across a change of the clocks", () => {
    assert.equal(holdUntil(new Date('2030-03-31T00:45:00Z'), ZONE), '2030-03-31 01:45');
    assert.equal(holdUntil(new Date('2030-03-31T01:15:00Z'), ZONE), '2030-03-31 03:15');
  });
});
