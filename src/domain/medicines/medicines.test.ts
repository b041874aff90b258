import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { ucumUnits } from '../../ucum-units.ts';
import { clinicDateTime } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import {
  type Allergy,
  allergiesTo,
  allergyStatement,
  checkAllergies,
  requireConsistentStatement,
} from './allergies.ts';
import { type FormularyEntry, formularyEntryOf, medicineLabel } from './formulary.ts';
import { doseRecordOf, isLate, requireRecordable, requireRunning } from './mar.ts';
import {
  doseAndRoute,
  frequencyInWords,
  frequencyOf,
  prescriptionStatusOn,
  requireDurationOrQuantity,
} from './prescriptions.ts';
import { checkAsNeeded, scheduledDoses } from './schedule.ts';

const BERLIN = 'Europe/Berlin';

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail('expected a DomainError');
}

const amoxicillin: FormularyEntry = {
  id: 1,
  genericName: 'Amoxicillin',
  form: 'capsule',
  strength: '500 mg',
  routes: ['oral'],
  doseUnit: 'mg',
  priceCents: 40,
  active: true,
};
const paracetamol: FormularyEntry = { ...amoxicillin, id: 2, genericName: 'Paracetamol', routes: ['oral', 'iv'] };
const ibuprofen: FormularyEntry = { ...amoxicillin, id: 3, genericName: 'Ibuprofen' };

const allergy = (substance: Allergy['substance'], extra: Partial<Allergy> = {}): Allergy => ({
  id: 1,
  patientId: 7,
  substance,
  type: 'allergy',
  reaction: 'anaphylaxis',
  severity: 'severe',
  status: 'active',
  recordedBy: { userId: 1, name: 'Dr Who' },
  recordedAt: new Date('2026-01-01T10:00:00Z'),
  ...extra,
});

const wall = (doses: Date[]) => doses.map((d) => clinicDateTime(d, BERLIN));
const hoursBetween = (doses: Date[]) =>
  doses.slice(1).map((d, i) => (d.getTime() - (doses[i] as Date).getTime()) / 3_600_000);

describe('the formulary', () => {
  it('keeps an entry with known routes and a UCUM dose unit, each route once', () => {
    const entry = formularyEntryOf(ucumUnits, { ...amoxicillin, routes: ['oral', 'oral'], doseUnit: '{tablet}' });
    assert.deepEqual(entry.routes, ['oral']);
    assert.equal(medicineLabel(amoxicillin), 'Amoxicillin 500 mg capsule');
  });

  it('refuses an unknown route or dose unit, naming each field', () => {
    const error = thrown(() =>
      formularyEntryOf(ucumUnits, { ...amoxicillin, routes: ['oral', 'by mouth' as 'oral'], doseUnit: 'mgg' }),
    );
    assert.equal(error.kind, 'invalid');
    assert.match(error.fields?.routes?.[0] ?? '', /by mouth is not a route/);
    assert.match(error.fields?.dose_unit?.[0] ?? '', /mgg is not a UCUM unit/);
    assert.ok(thrown(() => formularyEntryOf(ucumUnits, { ...amoxicillin, routes: [] })).fields?.routes);
  });
});

describe('allergies and the allergy check', () => {
  it('tells "not asked" from a recorded "no known allergies" and from allergies', () => {
    assert.deepEqual(allergyStatement([]), { kind: 'not_asked' });
    const none = allergy({ kind: 'none_known' });
    assert.equal(allergyStatement([none]).kind, 'none_known');
    const penicillin = allergy({ kind: 'text', text: 'Penicillin' });
    assert.equal(allergyStatement([penicillin, { ...none, status: 'inactive' }]).kind, 'allergies');
    assert.equal(allergyStatement([{ ...penicillin, status: 'resolved' }]).kind, 'not_asked');
  });

  it('refuses "no known allergies" beside an active allergy', () => {
    const error = thrown(() =>
      requireConsistentStatement([allergy({ kind: 'text', text: 'latex' })], { kind: 'none_known' }),
    );
    assert.equal(error.code, 'allergies_recorded');
    requireConsistentStatement([allergy({ kind: 'none_known' })], { kind: 'none_known' });
  });

  it('matches a formulary allergy by medicine, free text by name, and a class to its members', () => {
    assert.equal(
      allergiesTo(amoxicillin, [allergy({ kind: 'medicine', medicineId: 1, name: 'Amoxicillin' })]).length,
      1,
    );
    assert.equal(allergiesTo(amoxicillin, [allergy({ kind: 'text', text: ' AMOXICILLIN ' })]).length, 1);
    assert.equal(allergiesTo(amoxicillin, [allergy({ kind: 'text', text: 'Penicillins' })]).length, 1);
    assert.equal(allergiesTo(amoxicillin, [allergy({ kind: 'text', text: 'penicillin' })]).length, 1);
    assert.equal(allergiesTo(ibuprofen, [allergy({ kind: 'text', text: 'aspirin' })]).length, 1);
    assert.equal(allergiesTo(paracetamol, [allergy({ kind: 'text', text: 'penicillin' })]).length, 0);
    assert.equal(
      allergiesTo(amoxicillin, [allergy({ kind: 'text', text: 'penicillin' }, { status: 'inactive' })]).length,
      0,
    );
    assert.equal(allergiesTo(amoxicillin, [allergy({ kind: 'none_known' })]).length, 0);
  });

  it('refuses prescribing into an allergy with a 409 naming it, unless overridden with a reason', () => {
    const allergies = [allergy({ kind: 'text', text: 'Penicillin' })];
    const error = thrown(() => checkAllergies(amoxicillin, allergies, undefined));
    assert.equal(error.kind, 'conflict');
    assert.equal(error.code, 'allergy_conflict');
    assert.match(error.message, /allergic to Penicillin \(severe: anaphylaxis\)/);
    assert.ok(error.fields?.allergy_override_reason);
    assert.equal(thrown(() => checkAllergies(amoxicillin, allergies, '   ')).code, 'allergy_conflict');
    assert.deepEqual(checkAllergies(amoxicillin, allergies, 'Tolerated a full course in 2024'), {
      reason: 'Tolerated a full course in 2024',
      allergies: ['Penicillin (severe: anaphylaxis)'],
    });
    assert.equal(checkAllergies(paracetamol, allergies, 'not needed'), null);
  });
});

describe('prescriptions', () => {
  it('reads each kind of frequency and says it in words', () => {
    assert.equal(frequencyInWords(frequencyOf({ kind: 'times_a_day', times_a_day: 2 })), 'twice a day');
    assert.equal(frequencyInWords(frequencyOf({ kind: 'every_hours', every_hours: 8 })), 'every 8 hours');
    assert.deepEqual(frequencyOf({ kind: 'at_times', at_times: ['20:00', '08:00', '08:00'] }), {
      kind: 'at_times',
      times: ['08:00', '20:00'],
    });
    assert.equal(
      frequencyInWords(frequencyOf({ kind: 'as_needed', min_interval_hours: 4, max_per_day: 4 })),
      'as needed, at least 4 h apart, at most 4 in 24 hours',
    );
  });

  it('names the part of a frequency that is wrong', () => {
    assert.ok(thrown(() => frequencyOf({ kind: 'times_a_day', times_a_day: 7 })).fields?.times_a_day);
    assert.ok(thrown(() => frequencyOf({ kind: 'every_hours' })).fields?.every_hours);
    assert.ok(thrown(() => frequencyOf({ kind: 'at_times', at_times: ['8am'] })).fields?.at_times);
    const prn = thrown(() => frequencyOf({ kind: 'as_needed', min_interval_hours: 0 })).fields;
    assert.ok(prn?.min_interval_hours && prn.max_per_day);
  });

  it('converts a dose to the medicine’s unit and refuses an unknown unit or route with a 422', () => {
    assert.deepEqual(doseAndRoute(ucumUnits, amoxicillin, { amount: 1, unit: 'g' }, 'oral'), {
      dose: { amount: 1000, unit: 'mg' },
      route: 'oral',
    });
    const error = thrown(() => doseAndRoute(ucumUnits, amoxicillin, { amount: 5, unit: 'furlong' }, 'iv'));
    assert.equal(error.kind, 'invalid');
    assert.match(error.fields?.dose_unit?.[0] ?? '', /not a UCUM unit/);
    assert.match(error.fields?.route?.[0] ?? '', /given oral, not iv/);
    assert.ok(thrown(() => doseAndRoute(ucumUnits, amoxicillin, { amount: 5, unit: 'mL' }, 'oral')).fields?.dose_unit);
    assert.ok(thrown(() => doseAndRoute(ucumUnits, amoxicillin, { amount: 5, unit: 'mg' }, 'chewed')).fields?.route);
    assert.ok(thrown(() => doseAndRoute(ucumUnits, amoxicillin, { amount: 0, unit: 'mg' }, 'oral')).fields?.dose);
  });

  it('needs a duration or a quantity, and is active within its duration', () => {
    assert.ok(thrown(() => requireDurationOrQuantity(undefined, undefined)).fields?.duration_days);
    requireDurationOrQuantity(undefined, 20);
    const p = { startDate: '2028-02-27', durationDays: 3, stopped: false };
    assert.equal(prescriptionStatusOn(p, '2028-02-29'), 'active');
    assert.equal(prescriptionStatusOn(p, '2028-03-01'), 'completed');
    assert.equal(prescriptionStatusOn({ ...p, stopped: true }, '2028-02-28'), 'stopped');
    assert.equal(prescriptionStatusOn({ ...p, durationDays: null }, '2030-01-01'), 'active');
  });
});

describe('the schedule generator (Europe/Berlin)', () => {
  it('keeps every 8 hours as 8 elapsed hours across the spring-forward night (2026-03-29, 02:00 → 03:00)', () => {
    const doses = scheduledDoses(
      { kind: 'every_hours', hours: 8 },
      new Date('2026-03-28T19:00:00Z'),
      new Date('2026-03-29T20:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(hoursBetween(doses), [8, 8, 8]);
    assert.deepEqual(
      wall(doses).map((w) => `${w.date} ${w.time}`),
      ['2026-03-28 20:00', '2026-03-29 05:00', '2026-03-29 13:00', '2026-03-29 21:00'],
    );
  });

  it('keeps every 8 hours as 8 elapsed hours across the fall-back night (2026-10-25, 03:00 → 02:00)', () => {
    const doses = scheduledDoses(
      { kind: 'every_hours', hours: 8 },
      new Date('2026-10-24T18:00:00Z'),
      new Date('2026-10-25T12:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(hoursBetween(doses), [8, 8]);
    assert.deepEqual(
      wall(doses).map((w) => w.time),
      ['20:00', '03:00', '11:00'],
    );
  });

  it('keeps "at 08:00 and 20:00" at those wall-clock times across both DST nights', () => {
    for (const [start, end] of [
      ['2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z'],
      ['2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z'],
    ] as const) {
      const doses = scheduledDoses(
        { kind: 'at_times', times: ['08:00', '20:00'] },
        new Date(start),
        new Date(end),
        BERLIN,
      );
      assert.equal(doses.length, 6);
      assert.deepEqual(new Set(wall(doses).map((w) => w.time)), new Set(['08:00', '20:00']));
    }
    const spring = scheduledDoses(
      { kind: 'at_times', times: ['08:00', '20:00'] },
      new Date('2026-03-28T00:00:00Z'),
      new Date('2026-03-30T00:00:00Z'),
      BERLIN,
    );
    // 20:00 on the 28th and 08:00 on the 29th are 11 elapsed hours apart: the wall clock skipped one.
    assert.deepEqual(hoursBetween(spring), [12, 11, 12]);
  });

  it('gives a time the spring-forward night skips once, an hour later, and a repeated time once', () => {
    const spring = scheduledDoses(
      { kind: 'at_times', times: ['02:30'] },
      new Date('2026-03-28T12:00:00Z'),
      new Date('2026-03-30T12:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(
      wall(spring).map((w) => `${w.date} ${w.time}`),
      ['2026-03-29 03:30', '2026-03-30 02:30'],
    );
    const autumn = scheduledDoses(
      { kind: 'at_times', times: ['02:30'] },
      new Date('2026-10-24T12:00:00Z'),
      new Date('2026-10-26T12:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(
      wall(autumn).map((w) => `${w.date} ${w.time}`),
      ['2026-10-25 02:30', '2026-10-26 02:30'],
    );
  });

  it('schedules through a leap day (2028-02-29)', () => {
    const daily = scheduledDoses(
      { kind: 'times_a_day', times: 1 },
      new Date('2028-02-27T23:00:00Z'),
      new Date('2028-03-01T23:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(
      wall(daily).map((w) => w.date),
      ['2028-02-28', '2028-02-29', '2028-03-01'],
    );
    const every24 = scheduledDoses(
      { kind: 'every_hours', hours: 24 },
      new Date('2028-02-28T07:00:00Z'),
      new Date('2028-03-01T08:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(
      wall(every24).map((w) => `${w.date} ${w.time}`),
      ['2028-02-28 08:00', '2028-02-29 08:00', '2028-03-01 08:00'],
    );
  });

  it('uses the ward’s standard times for so many times a day, and schedules nothing as needed', () => {
    const tds = scheduledDoses(
      { kind: 'times_a_day', times: 3 },
      new Date('2026-06-01T00:00:00Z'),
      new Date('2026-06-01T22:00:00Z'),
      BERLIN,
    );
    assert.deepEqual(
      wall(tds).map((w) => w.time),
      ['08:00', '14:00', '20:00'],
    );
    const prn = { kind: 'as_needed', minIntervalHours: 4, maxPerDay: 4 } as const;
    assert.deepEqual(
      scheduledDoses(prn, new Date('2026-06-01T00:00:00Z'), new Date('2026-06-02T00:00:00Z'), BERLIN),
      [],
    );
    assert.deepEqual(scheduledDoses({ kind: 'every_hours', hours: 8 }, new Date(0), new Date(0), BERLIN), []);
  });
});

describe('as-needed rules', () => {
  const rule = { minIntervalHours: 4, maxPerDay: 3 };
  const at = (iso: string) => new Date(iso);

  it('refuses a dose inside the minimum interval, naming the rule', () => {
    const error = thrown(() => checkAsNeeded(rule, [at('2026-06-01T08:00:00Z')], at('2026-06-01T11:59:00Z')));
    assert.equal(error.code, 'min_interval');
    assert.match(error.message, /At least 4 h/);
    checkAsNeeded(rule, [at('2026-06-01T08:00:00Z')], at('2026-06-01T12:00:00Z'));
  });

  it('holds the interval to a dose charted after it too', () => {
    const error = thrown(() => checkAsNeeded(rule, [at('2026-06-01T12:00:00Z')], at('2026-06-01T10:00:00Z')));
    assert.equal(error.code, 'min_interval');
  });

  it('refuses a dose past the maximum in 24 hours, naming the rule', () => {
    const given = ['2026-06-01T00:00:00Z', '2026-06-01T06:00:00Z', '2026-06-01T12:00:00Z'].map(at);
    const error = thrown(() => checkAsNeeded(rule, given, at('2026-06-01T18:00:00Z')));
    assert.equal(error.code, 'daily_maximum');
    assert.match(error.message, /At most 3 doses/);
    checkAsNeeded(rule, given, at('2026-06-02T00:00:00Z'));
  });
});

describe('the medication administration record', () => {
  const now = new Date('2026-06-01T12:00:00Z');

  it('shows a dose still due more than 60 minutes after its time as late', () => {
    assert.equal(isLate({ status: 'due', dueAt: new Date('2026-06-01T11:00:00Z') }, now), false);
    assert.equal(isLate({ status: 'due', dueAt: new Date('2026-06-01T10:59:00Z') }, now), true);
    assert.equal(isLate({ status: 'given', dueAt: new Date('2026-06-01T08:00:00Z') }, now), false);
  });

  it('needs a dose and a time not in the future for a dose given, and a reason for the others', () => {
    assert.deepEqual(doseRecordOf({ outcome: 'given', amount: 500 }, now), {
      outcome: 'given',
      givenAt: now,
      amount: 500,
      reason: null,
    });
    const future = thrown(() =>
      doseRecordOf({ outcome: 'given', amount: 500, givenAt: new Date('2026-06-01T12:01:00Z') }, now),
    );
    assert.ok(future.fields?.given_at);
    assert.ok(thrown(() => doseRecordOf({ outcome: 'given' }, now)).fields?.dose);
    for (const outcome of ['held', 'refused', 'missed'] as const) {
      assert.ok(thrown(() => doseRecordOf({ outcome, reason: ' ' }, now)).fields?.reason);
      assert.equal(doseRecordOf({ outcome, reason: 'nil by mouth' }, now).reason, 'nil by mouth');
    }
  });

  it('records a dose once, and none of a discontinued order', () => {
    assert.equal(
      thrown(() => requireRecordable({ status: 'active' }, { status: 'given' })).code,
      'dose_already_recorded',
    );
    assert.equal(
      thrown(() => requireRecordable({ status: 'discontinued' }, { status: 'due' })).code,
      'order_discontinued',
    );
    requireRecordable({ status: 'active' }, { status: 'due' });
    assert.equal(thrown(() => requireRunning({ status: 'discontinued' })).code, 'order_discontinued');
  });
});
