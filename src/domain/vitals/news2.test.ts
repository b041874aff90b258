import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import {
  clinicalResponse,
  isOverdue,
  news2,
  nextDue,
  raisesAlert,
  type News2Parameter,
  type News2Set,
} from './news2.ts';

/** A set that scores 0 on every parameter of chart 1. */
const calm: News2Set = {
  respiratoryRate: 16,
  spo2: 97,
  onOxygen: false,
  systolic: 120,
  pulse: 70,
  consciousness: 'A',
  temperature: 37.0,
};

/** Each value of `values` scores `score` on `parameter`, and the others stay 0. */
function row(parameter: News2Parameter, change: (value: number) => Partial<News2Set>, values: number[], score: number) {
  for (const value of values) {
    const scored = news2({ ...calm, ...change(value) }, 1);
    assert.equal(scored.parameters[parameter], score, `${parameter} ${value}`);
    assert.equal(scored.total, score, `${parameter} ${value}: the others score 0`);
  }
}

describe('NEWS2 chart 1 (RCP 2017)', () => {
  it('scores respiration rate ≤8 as 3', () => row('respiratory_rate', (v) => ({ respiratoryRate: v }), [3, 8], 3));
  it('scores respiration rate 9–11 as 1', () => row('respiratory_rate', (v) => ({ respiratoryRate: v }), [9, 11], 1));
  it('scores respiration rate 12–20 as 0', () => row('respiratory_rate', (v) => ({ respiratoryRate: v }), [12, 20], 0));
  it('scores respiration rate 21–24 as 2', () => row('respiratory_rate', (v) => ({ respiratoryRate: v }), [21, 24], 2));
  it('scores respiration rate ≥25 as 3', () => row('respiratory_rate', (v) => ({ respiratoryRate: v }), [25, 40], 3));

  it('scores SpO2 scale 1 ≤91 % as 3', () => row('spo2', (v) => ({ spo2: v }), [80, 91], 3));
  it('scores SpO2 scale 1 92–93 % as 2', () => row('spo2', (v) => ({ spo2: v }), [92, 93], 2));
  it('scores SpO2 scale 1 94–95 % as 1', () => row('spo2', (v) => ({ spo2: v }), [94, 95], 1));
  it('scores SpO2 scale 1 ≥96 % as 0', () => row('spo2', (v) => ({ spo2: v }), [96, 100], 0));

  const scale2 = (spo2: number, onOxygen: boolean) => news2({ ...calm, spo2, onOxygen }, 2).parameters.spo2;
  it('scores SpO2 scale 2 ≤83 % as 3', () => assert.deepEqual([scale2(70, false), scale2(83, true)], [3, 3]));
  it('scores SpO2 scale 2 84–85 % as 2', () => assert.deepEqual([scale2(84, false), scale2(85, true)], [2, 2]));
  it('scores SpO2 scale 2 86–87 % as 1', () => assert.deepEqual([scale2(86, false), scale2(87, true)], [1, 1]));
  it('scores SpO2 scale 2 88–92 % as 0, and ≥93 % on air as 0', () =>
    assert.deepEqual([scale2(88, true), scale2(92, true), scale2(93, false), scale2(100, false)], [0, 0, 0, 0]));
  it('scores SpO2 scale 2 93–94 % on oxygen as 1', () =>
    assert.deepEqual([scale2(93, true), scale2(94, true)], [1, 1]));
  it('scores SpO2 scale 2 95–96 % on oxygen as 2', () =>
    assert.deepEqual([scale2(95, true), scale2(96, true)], [2, 2]));
  it('scores SpO2 scale 2 ≥97 % on oxygen as 3', () => assert.deepEqual([scale2(97, true), scale2(100, true)], [3, 3]));

  it('scores air as 0 and supplemental oxygen as 2', () => {
    assert.equal(news2(calm, 1).parameters.air_or_oxygen, 0);
    const onOxygen = news2({ ...calm, onOxygen: true }, 1);
    assert.deepEqual([onOxygen.parameters.air_or_oxygen, onOxygen.total], [2, 2]);
  });

  it('scores systolic BP ≤90 as 3', () => row('systolic', (v) => ({ systolic: v }), [60, 90], 3));
  it('scores systolic BP 91–100 as 2', () => row('systolic', (v) => ({ systolic: v }), [91, 100], 2));
  it('scores systolic BP 101–110 as 1', () => row('systolic', (v) => ({ systolic: v }), [101, 110], 1));
  it('scores systolic BP 111–219 as 0', () => row('systolic', (v) => ({ systolic: v }), [111, 219], 0));
  it('scores systolic BP ≥220 as 3', () => row('systolic', (v) => ({ systolic: v }), [220, 260], 3));

  it('scores pulse ≤40 as 3', () => row('pulse', (v) => ({ pulse: v }), [30, 40], 3));
  it('scores pulse 41–50 as 1', () => row('pulse', (v) => ({ pulse: v }), [41, 50], 1));
  it('scores pulse 51–90 as 0', () => row('pulse', (v) => ({ pulse: v }), [51, 90], 0));
  it('scores pulse 91–110 as 1', () => row('pulse', (v) => ({ pulse: v }), [91, 110], 1));
  it('scores pulse 111–130 as 2', () => row('pulse', (v) => ({ pulse: v }), [111, 130], 2));
  it('scores pulse ≥131 as 3', () => row('pulse', (v) => ({ pulse: v }), [131, 180], 3));

  it('scores alert as 0 and new confusion, voice, pain or unresponsive (CVPU) as 3', () => {
    assert.equal(news2(calm, 1).parameters.consciousness, 0);
    for (const consciousness of ['C', 'V', 'P', 'U'] as const)
      assert.equal(news2({ ...calm, consciousness }, 1).parameters.consciousness, 3, consciousness);
  });

  it('scores temperature ≤35.0 as 3', () => row('temperature', (v) => ({ temperature: v }), [33, 35.0, 35.04], 3));
  it('scores temperature 35.1–36.0 as 1', () => row('temperature', (v) => ({ temperature: v }), [35.1, 36.0], 1));
  it('scores temperature 36.1–38.0 as 0', () => row('temperature', (v) => ({ temperature: v }), [36.1, 38.0], 0));
  it('scores temperature 38.1–39.0 as 1', () => row('temperature', (v) => ({ temperature: v }), [38.1, 39.0], 1));
  it('scores temperature ≥39.1 as 2', () => row('temperature', (v) => ({ temperature: v }), [39.1, 41], 2));
});

describe('NEWS2 charts 3 and 4: clinical risk and response', () => {
  it('rates an aggregate 0 low, observed 12-hourly', () =>
    assert.deepEqual(pick(clinicalResponse(0, false)), ['low', '12-hourly']));
  it('rates an aggregate 1–4 low, observed at least 4–6-hourly', () => {
    assert.deepEqual(pick(clinicalResponse(1, false)), ['low', '4-6-hourly']);
    assert.deepEqual(pick(clinicalResponse(4, false)), ['low', '4-6-hourly']);
  });
  it('rates a 3 in any single parameter low-medium, observed at least hourly', () => {
    assert.deepEqual(pick(clinicalResponse(3, true)), ['low-medium', 'hourly']);
    const confused = news2({ ...calm, consciousness: 'C' }, 1);
    assert.deepEqual([confused.total, confused.singleThree, confused.risk], [3, true, 'low-medium']);
  });
  it('rates an aggregate 5–6 medium, observed at least hourly, whatever a single parameter scores', () => {
    assert.deepEqual(pick(clinicalResponse(5, false)), ['medium', 'hourly']);
    assert.deepEqual(pick(clinicalResponse(6, true)), ['medium', 'hourly']);
  });
  it('rates an aggregate 7 or more high, monitored continuously', () => {
    assert.deepEqual(pick(clinicalResponse(7, false)), ['high', 'continuous']);
    assert.deepEqual(pick(clinicalResponse(20, true)), ['high', 'continuous']);
  });
  it('alerts on medium and high risk only', () =>
    assert.deepEqual((['low', 'low-medium', 'medium', 'high'] as const).map(raisesAlert), [false, false, true, true]));
  it('scores a deteriorating set to its total', () => {
    const septic = news2(
      {
        respiratoryRate: 26,
        spo2: 93,
        onOxygen: true,
        systolic: 98,
        pulse: 118,
        consciousness: 'A',
        temperature: 38.6,
      },
      1,
    );
    assert.deepEqual([septic.total, septic.risk], [3 + 2 + 2 + 2 + 2 + 0 + 1, 'high']);
  });
});

describe('the next observation due', () => {
  const taken = new Date('2026-03-29T00:30:00Z');
  it('falls 12 h, 4 h, 1 h or 15 minutes after the set, in elapsed time across a change of clocks', () => {
    assert.equal(nextDue(taken, '12-hourly').toISOString(), '2026-03-29T12:30:00.000Z');
    assert.equal(nextDue(taken, '4-6-hourly').toISOString(), '2026-03-29T04:30:00.000Z');
    assert.equal(nextDue(taken, 'hourly').toISOString(), '2026-03-29T01:30:00.000Z');
    assert.equal(nextDue(taken, 'continuous').toISOString(), '2026-03-29T00:45:00.000Z');
  });
  it('is overdue only once its time has passed', () => {
    const due = nextDue(taken, 'hourly');
    assert.equal(isOverdue(due, new Date('2026-03-29T01:30:00Z')), false);
    assert.equal(isOverdue(due, new Date('2026-03-29T01:30:01Z')), true);
  });
});

function pick(answer: { risk: string; frequency: string }) {
  return [answer.risk, answer.frequency];
}
