import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fluidTotals, type FluidEvent } from './fluid-balance.ts';

const ev = (at: string, kind: 'intake' | 'output', volumeMl: number): FluidEvent => ({
  at: new Date(at),
  kind,
  volumeMl,
});
const brief = (totals: ReturnType<typeof fluidTotals>) =>
  totals.map((t) => [t.start.toISOString(), t.intakeMl, t.outputMl, t.balanceMl, t.runningBalanceMl]);

describe('fluid balance', () => {
  // Berlin is UTC+1 in January: 07:00 local is 06:00Z.
  const events = [
    ev('2026-01-10T07:00:00Z', 'intake', 250),
    ev('2026-01-10T13:59:00Z', 'output', 400),
    ev('2026-01-10T14:00:00Z', 'intake', 1000),
    ev('2026-01-11T05:59:00Z', 'output', 300),
    ev('2026-01-11T06:00:00Z', 'intake', 100),
  ];

  it('totals 8-hour shifts from 07:00, 15:00 and 23:00 on the clinic clock, with the running balance', () => {
    assert.deepEqual(brief(fluidTotals(events, 'Europe/Berlin', 8)), [
      ['2026-01-10T06:00:00.000Z', 250, 400, -150, -150],
      ['2026-01-10T14:00:00.000Z', 1000, 0, 1000, 850],
      ['2026-01-10T22:00:00.000Z', 0, 300, -300, 550],
      ['2026-01-11T06:00:00.000Z', 100, 0, 100, 650],
      ['2026-01-11T14:00:00.000Z', 0, 0, 0, 650],
      ['2026-01-11T22:00:00.000Z', 0, 0, 0, 650],
    ]);
  });

  it('totals 12-hour shifts and 24-hour days from 07:00', () => {
    assert.deepEqual(
      brief(fluidTotals(events, 'Europe/Berlin', 12)).map((row) => row.slice(0, 3)),
      [
        ['2026-01-10T06:00:00.000Z', 1250, 400],
        ['2026-01-10T18:00:00.000Z', 0, 300],
        ['2026-01-11T06:00:00.000Z', 100, 0],
        ['2026-01-11T18:00:00.000Z', 0, 0],
      ],
    );
    assert.deepEqual(brief(fluidTotals(events, 'Europe/Berlin', 24)), [
      ['2026-01-10T06:00:00.000Z', 1250, 700, 550, 550],
      ['2026-01-11T06:00:00.000Z', 100, 0, 100, 650],
    ]);
  });

  it('keeps the night shift on the wall clock across the spring change of clocks (7 hours long)', () => {
    const [night] = fluidTotals([ev('2026-03-28T23:00:00Z', 'intake', 50)], 'Europe/Berlin', 8).filter(
      (t) => t.intakeMl === 50,
    );
    assert.equal(night?.start.toISOString(), '2026-03-28T22:00:00.000Z');
    assert.equal(night?.end.toISOString(), '2026-03-29T05:00:00.000Z');
  });

  it('has no totals without events', () => assert.deepEqual(fluidTotals([], 'Europe/Berlin', 8), []));
});
