/**
 * The constructed month both census tests count, the domain's from its segments and the HTTP one through the API:
 * March 2026 in Berlin (summer time from 29 March, 02:00 → 03:00), two beds made on 1 February, four stays, all
 * starting in the first bed: A from 27 Feb 22:00 to 2 Mar 10:00; B from exactly midnight 5 Mar to exactly midnight
 * 7 Mar; C from 28 Mar 23:59, moved to the other bed at 03:30 on the night the clocks go forward, leaving exactly at
 * midnight 31 Mar; D from 31 Mar 23:30, still in bed. Counted on 2 April, by hand.
 */
export const CENSUS_MONTH = {
  timeZone: 'Europe/Berlin',
  bedsCreatedAt: '2026-02-01T08:00:00Z',
  now: '2026-04-02T10:00:00Z',
  stays: [
    { name: 'Anna Before', admittedAt: '2026-02-27T21:00:00Z', dischargedAt: '2026-03-02T09:00:00Z' }, // 22:00 Berlin, the month before
    { name: 'Bert Midnight', admittedAt: '2026-03-04T23:00:00Z', dischargedAt: '2026-03-06T23:00:00Z' }, // exactly midnight, 5 and 7 March
    // 23:59 the night the clocks go forward; moved at 03:30 summer time; leaves exactly at midnight, 31 March
    {
      name: 'Cleo Clocks',
      admittedAt: '2026-03-28T22:59:00Z',
      transferredAt: '2026-03-29T01:30:00Z',
      dischargedAt: '2026-03-30T22:00:00Z',
    },
    { name: 'Dan Still', admittedAt: '2026-03-31T21:30:00Z' }, // 23:30, still in bed
  ] as { name: string; admittedAt: string; transferredAt?: string; dischargedAt?: string }[],
  /** The hand count of 1–31 March: who was in bed at each midnight (the days with anyone), and the ward's month. */
  byHand: {
    inBedAtMidnight: {
      '2026-03-01': 1,
      '2026-03-05': 1,
      '2026-03-06': 1,
      '2026-03-28': 1,
      '2026-03-29': 1,
      '2026-03-30': 1,
      '2026-03-31': 1,
    },
    ward: {
      patient_nights: 7,
      bed_nights: 62,
      admissions: 3,
      discharges: 3,
      transfers: 1,
      occupancy_percent: 11.3,
      average_length_of_stay: 2.7,
    },
  },
};
