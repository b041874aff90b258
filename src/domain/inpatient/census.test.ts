import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { censusMidnight, censusNights, countCensus, type Segment } from './census.ts';
import { chargeLines, interimWeeks } from './charges.ts';
import { CENSUS_MONTH } from '../../testing/census-month.ts';

const TZ = CENSUS_MONTH.timeZone;
const at = (iso: string) => new Date(iso);
const ward = { wardId: 7, wardName: 'Ward A' };
const segment = (
  admissionId: number,
  startedAt: string,
  endedAt: string | undefined,
  endedBy: Segment['endedBy'],
): Segment => ({
  ...ward,
  admissionId,
  startedAt: at(startedAt),
  endedAt: endedAt === undefined ? null : at(endedAt),
  endedBy,
});

/** The stays of CENSUS_MONTH as bed segments, a transfer ending one and starting the next. */
const MARCH: Segment[] = CENSUS_MONTH.stays.flatMap(({ admittedAt, transferredAt, dischargedAt }, index) => {
  const ending = dischargedAt === undefined ? null : 'discharge';
  return transferredAt === undefined
    ? [segment(index + 1, admittedAt, dischargedAt, ending)]
    : [
        segment(index + 1, admittedAt, transferredAt, 'transfer'),
        segment(index + 1, transferredAt, dischargedAt, ending),
      ];
});
const BEDS = [0, 1].map(() => ({ ...ward, createdAt: at(CENSUS_MONTH.bedsCreatedAt), retiredAt: null }));
const NOW = at(CENSUS_MONTH.now);

describe('the midnight census', () => {
  it("takes each day's census at the midnight that ends it, in the clinic's zone, across the change to summer time", () => {
    assert.equal(censusMidnight('2026-03-28', TZ).toISOString(), '2026-03-28T23:00:00.000Z');
    assert.equal(censusMidnight('2026-03-29', TZ).toISOString(), '2026-03-29T22:00:00.000Z');
  });

  it('counts a stay from the first midnight after it begins to the midnight it ends at', () => {
    assert.deepEqual(censusNights(MARCH[0] as Segment, TZ, NOW), ['2026-02-27', '2026-02-28', '2026-03-01']);
    assert.deepEqual(
      censusNights(MARCH[1] as Segment, TZ, NOW),
      ['2026-03-05', '2026-03-06'],
      'arrives at midnight: counted from the next one; leaves at midnight: counted at it',
    );
    assert.deepEqual(censusNights(MARCH[2] as Segment, TZ, NOW), ['2026-03-28'], 'one minute before midnight counts');
    assert.deepEqual(censusNights(MARCH[3] as Segment, TZ, NOW), ['2026-03-29', '2026-03-30']);
    assert.deepEqual(censusNights(MARCH[4] as Segment, TZ, NOW), ['2026-03-31', '2026-04-01']);
  });

  it('equals the hand count of a month: who was in bed at each midnight, admissions, discharges, transfers, occupancy, length of stay', () => {
    const census = countCensus({
      from: '2026-03-01',
      to: '2026-03-31',
      timeZone: TZ,
      now: NOW,
      segments: MARCH,
      beds: BEDS,
    });
    const inBed = Object.fromEntries(
      census.days.filter((d) => d.in_bed_at_midnight > 0).map((d) => [d.date, d.in_bed_at_midnight]),
    );
    assert.deepEqual(inBed, CENSUS_MONTH.byHand.inBedAtMidnight);
    const on = (key: 'admissions' | 'discharges' | 'transfers') =>
      census.days.filter((d) => d[key] > 0).map((d) => `${d.date}:${d[key]}`);
    assert.deepEqual(on('admissions'), ['2026-03-05:1', '2026-03-28:1', '2026-03-31:1']);
    assert.deepEqual(on('discharges'), ['2026-03-02:1', '2026-03-07:1', '2026-03-31:1']);
    assert.deepEqual(on('transfers'), ['2026-03-29:1']);
    assert.equal(census.days.length, 31);
    assert.equal(census.days.find((d) => d.date === '2026-03-29')?.occupancy_percent, 50);
    assert.deepEqual(census.wards, [{ department_id: 7, department: 'Ward A', ...CENSUS_MONTH.byHand.ward }]);
  });

  it('counts only the beds that existed at each midnight', () => {
    const beds = [{ ...ward, createdAt: at('2026-03-10T12:00:00Z'), retiredAt: at('2026-03-12T08:00:00Z') }];
    const census = countCensus({ from: '2026-03-09', to: '2026-03-12', timeZone: TZ, now: NOW, segments: [], beds });
    assert.deepEqual(
      census.days.map((d) => d.beds),
      [0, 1, 1, 0],
    );
  });
});

describe('bed charges', () => {
  const rated = MARCH.slice(2, 4).map((s, i) => ({
    bedId: i + 1,
    bed: `B${i + 1}`,
    room: 'R1',
    rateCents: i === 0 ? 10_000 : 25_050,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
  }));

  it('bills each bed its own nights at its own rate, one line per bed', () => {
    assert.deepEqual(chargeLines(rated, TZ, NOW, null, '2026-12-31'), [
      {
        bedId: 1,
        bed: 'B1',
        room: 'R1',
        firstNight: '2026-03-28',
        lastNight: '2026-03-28',
        nights: 1,
        rateCents: 10_000,
        amountCents: 10_000,
      },
      {
        bedId: 2,
        bed: 'B2',
        room: 'R1',
        firstNight: '2026-03-29',
        lastNight: '2026-03-30',
        nights: 2,
        rateCents: 25_050,
        amountCents: 50_100,
      },
    ]);
    assert.deepEqual(
      chargeLines(rated, TZ, NOW, '2026-03-29', '2026-12-31').map((l) => l.nights),
      [1],
      'nights already billed are left out',
    );
  });

  it('bills whole weeks of a long stay once their last midnight has passed, and nothing twice', () => {
    const now = censusMidnight('2026-03-14', TZ);
    assert.deepEqual(interimWeeks('2026-03-01', null, TZ, now), [
      { from: '2026-03-01', to: '2026-03-07' },
      { from: '2026-03-08', to: '2026-03-14' },
    ]);
    assert.deepEqual(interimWeeks('2026-03-01', '2026-03-14', TZ, now), []);
    assert.deepEqual(interimWeeks('2026-03-01', null, TZ, new Date(now.getTime() - 1)), [
      { from: '2026-03-01', to: '2026-03-07' },
    ]);
  });
});
