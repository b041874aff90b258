import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { DomainError } from '../shared/errors.ts';
import {
  type CatalogueTest,
  type ReferenceRange,
  ageInDays,
  bandErrors,
  bandFor,
  overlappingBands,
} from './catalogue.ts';
import { type Interpretation, interpret, interpretFor, rangeInWords, reviewRank } from './interpretation.ts';
import { orderLines, orderNumberOf, requireCancellable, requireResultable } from './orders.ts';
import {
  type ObservationVersion,
  type ReportEvent,
  type ReportStatus,
  autoReleaseAt,
  correction,
  criticalNotices,
  historySinceRelease,
  isReleased,
  mayAcknowledge,
  readAutoReleaseDays,
  reportTransition,
} from './reports.ts';
import { type Units, quantityInTestUnit } from './units.ts';

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail('expected a DomainError');
}

const YEAR = 365;
const band = (
  sex: ReferenceRange['sex'],
  from: number,
  to: number | null,
  low: number | null,
  high: number | null,
) => ({
  sex,
  ageFromDays: from,
  ageToDays: to,
  low,
  high,
});

// Haemoglobin in g/dL, adult bands by sex and a child band (as the starter catalogue has them).
const haemoglobin: Pick<CatalogueTest, 'ranges' | 'criticalLimits'> = {
  ranges: [
    band('male', 18 * YEAR, null, 13.5, 17.5),
    band('female', 18 * YEAR, null, 12, 15.5),
    band('any', 365, 18 * YEAR, 11, 14.5),
  ],
  criticalLimits: [band('any', 0, null, 7, 20)],
};

describe('interpretation by the range and the critical limits', () => {
  const range = { low: 3.5, high: 5.1 };
  const critical = { low: 2.5, high: 6.5 };
  const rows: [number, Interpretation | null][] = [
    [2.4, 'LL'],
    [2.5, 'LL'],
    [2.6, 'L'],
    [3.4, 'L'],
    [3.5, 'N'],
    [4.2, 'N'],
    [5.1, 'N'],
    [5.2, 'H'],
    [6.4, 'H'],
    [6.5, 'HH'],
    [9, 'HH'],
  ];
  for (const [value, expected] of rows) {
    it(`reads potassium ${value} mmol/L as ${expected}`, () => {
      assert.equal(interpret(value, range, critical), expected);
    });
  }
  it('reads nothing when neither a range nor a limit is known', () => {
    assert.equal(interpret(4, undefined, undefined), null);
    assert.equal(interpret(4, { low: null, high: null }, undefined), null);
  });
  it('reads a critical value even without a range', () => {
    assert.equal(interpret(1, undefined, critical), 'LL');
  });
  it('reads a range open at one end', () => {
    assert.equal(interpret(80, { low: 60, high: null }, undefined), 'N');
    assert.equal(interpret(50, { low: 60, high: null }, undefined), 'L');
  });
});

describe('the band in force by sex and age', () => {
  const adult = '1990-06-15';
  const rows: [string, 'male' | 'female' | 'other', string, number, Interpretation | null][] = [
    ['an adult man', 'male', adult, 13, 'L'],
    ['an adult woman', 'female', adult, 13, 'N'],
    ['an adult man', 'male', adult, 17, 'N'],
    ['an adult woman', 'female', adult, 17, 'H'],
    ['a child of either sex', 'male', '2020-01-01', 13, 'N'],
    ['a child of either sex', 'female', '2020-01-01', 15, 'H'],
    ['an adult of another gender, who has no band', 'other', adult, 13, null],
    ['anyone, past the critical limit', 'female', adult, 6.9, 'LL'],
  ];
  for (const [who, gender, birthDate, value, expected] of rows) {
    it(`reads haemoglobin ${value} g/dL of ${who} as ${expected}`, () => {
      assert.equal(interpretFor(haemoglobin, { gender, birthDate }, value, '2025-03-01').interpretation, expected);
    });
  }
  it('reads an infant under one year against no band, since none holds them', () => {
    assert.equal(bandFor(haemoglobin.ranges, 'male', 100), undefined);
  });
  it('reads a patient whose birth date is unknown as an adult', () => {
    assert.deepEqual(interpretFor(haemoglobin, { gender: 'male', birthDate: null }, 14, '2025-03-01'), {
      interpretation: 'N',
      range: { low: 13.5, high: 17.5 },
    });
  });
  it('counts the age in whole days up to the day the value was true, a birthday included', () => {
    assert.equal(ageInDays('2007-03-01', '2025-03-01'), 6575);
    assert.equal(ageInDays('2025-03-02', '2025-03-01'), 0);
  });
  it('moves into the adult band on the 18th birthday in days', () => {
    assert.equal(bandFor(haemoglobin.ranges, 'female', 18 * YEAR - 1)?.sex, 'any');
    assert.equal(bandFor(haemoglobin.ranges, 'female', 18 * YEAR)?.sex, 'female');
  });
  it('finds bands of one sex whose ages overlap, and none in the catalogue above', () => {
    assert.deepEqual(overlappingBands([band('any', 0, 400, 1, 2), band('any', 365, null, 1, 2)]), [0, 1]);
    assert.equal(overlappingBands(haemoglobin.ranges), undefined);
  });
  it('refuses an edit whose bands of one sex overlap in age, naming both; bands of different sexes may', () => {
    assert.deepEqual(
      bandErrors('ranges', [band('female', 0, 6575, 11, 15), band('female', 6000, null, 12, 16)], false),
      {
        ranges: ['ranges[0] and ranges[1] overlap in age for female'],
      },
    );
    assert.deepEqual(bandErrors('ranges', [band('female', 0, null, 12, 16), band('male', 0, null, 13, 17)], false), {});
    assert.deepEqual(bandErrors('ranges', haemoglobin.ranges, false), {});
  });
  it('lets bands touch: one ends on the day the next begins', () => {
    assert.deepEqual(bandErrors('ranges', [band('any', 0, 365, 1, 2), band('any', 365, null, 1, 2)], false), {});
  });
  it('names each band with no end, ends out of order or ages out of order', () => {
    assert.deepEqual(
      bandErrors(
        'critical_limits',
        [band('any', 0, null, null, null), band('male', 0, null, 5, 5), band('female', 400, 300, 1, 2)],
        true,
      ),
      {
        'critical_limits[0].low': ['give a low end, a high end or both'],
        'critical_limits[1].high': ['must be above its low end'],
        'critical_limits[2].age_to_days': ['must be after age_from_days'],
      },
    );
    assert.deepEqual(bandErrors('ranges', [band('male', 0, null, 5, 5)], false), {});
    assert.deepEqual(bandErrors('ranges', [band('male', 0.5, null, 5, 6)], false), {
      'ranges[0].age_from_days': ['must be a whole number of days'],
    });
  });
  it('says the range in plain words', () => {
    assert.equal(rangeInWords({ low: 3.5, high: 5.1 }, 'mmol/L'), 'Usual range 3.5 to 5.1 mmol/L');
    assert.equal(rangeInWords({ low: 60, high: null }, 'mL/min'), 'Usual range 60 mL/min or more');
    assert.equal(rangeInWords({ low: null, high: 200 }, 'mg/dL'), 'Usual range up to 200 mg/dL');
    assert.equal(rangeInWords(null, null), 'No reference range');
  });
  it('ranks results to review: critical first, then abnormal, then normal', () => {
    assert.equal(reviewRank(['N', 'HH']), 0);
    assert.equal(reviewRank(['N', 'L', null]), 1);
    assert.equal(reviewRank(['N', null]), 2);
  });
});

describe('units', () => {
  // A fake UCUM of three commensurable units and one of another dimension; src/ucum-units.test.ts tests the real one.
  const factors: Record<string, [string, number]> = {
    'g/dL': ['mass', 10],
    'g/L': ['mass', 1],
    'mg/dL': ['mass', 0.01],
    'mmol/L': ['amount', 1],
  };
  const units: Units = {
    isValid: (unit) => unit in factors,
    convert: (value, from, to) => {
      const [a, b] = [factors[from], factors[to]];
      return a && b && a[0] === b[0] ? (value * a[1]) / b[1] : undefined;
    },
  };
  const test = { name: 'Haemoglobin', unit: 'g/dL', physicalLow: 0, physicalHigh: 30 };
  it('keeps a value given in the test unit as it is', () => {
    assert.deepEqual(quantityInTestUnit(units, test, 13.2, 'g/dL'), { value: 13.2, unit: 'g/dL' });
  });
  it('converts a commensurable unit to the test unit', () => {
    assert.deepEqual(quantityInTestUnit(units, test, 132, 'g/L'), { value: 13.2, unit: 'g/dL' });
  });
  it('refuses an unknown unit with a 422 naming it', () => {
    const error = thrown(() => quantityInTestUnit(units, test, 13, 'gram/dl'));
    assert.equal(error.kind, 'invalid');
    assert.match(error.fields?.unit?.[0] ?? '', /gram\/dl is not a UCUM unit/);
  });
  it('refuses an incommensurable unit with a 422 naming both', () => {
    const error = thrown(() => quantityInTestUnit(units, test, 8, 'mmol/L'));
    assert.match(error.fields?.unit?.[0] ?? '', /mmol\/L cannot be converted to g\/dL/);
  });
  it('refuses a value outside physical bounds, after conversion, rather than clamping it', () => {
    assert.equal(thrown(() => quantityInTestUnit(units, test, -1, 'g/dL')).kind, 'invalid');
    assert.match(thrown(() => quantityInTestUnit(units, test, 400, 'g/L')).fields?.value?.[0] ?? '', /outside/);
    assert.equal(thrown(() => quantityInTestUnit(units, test, Number.NaN, 'g/dL')).kind, 'invalid');
  });
});

describe('report status', () => {
  const rows: [ReportStatus, ReportEvent, ReportStatus | 'refused'][] = [
    ['registered', 'result', 'preliminary'],
    ['registered', 'cancel', 'cancelled'],
    ['registered', 'finalize', 'refused'],
    ['preliminary', 'result', 'preliminary'],
    ['preliminary', 'finalize', 'final'],
    ['preliminary', 'correct', 'refused'],
    ['preliminary', 'cancel', 'refused'],
    ['final', 'finalize', 'refused'],
    ['final', 'result', 'refused'],
    ['final', 'correct', 'corrected'],
    ['final', 'amend', 'amended'],
    ['corrected', 'correct', 'corrected'],
    ['corrected', 'amend', 'amended'],
    ['amended', 'correct', 'corrected'],
    ['cancelled', 'result', 'refused'],
  ];
  for (const [from, event, to] of rows) {
    it(`${event} on a ${from} report → ${to}`, () => {
      if (to === 'refused') assert.equal(thrown(() => reportTransition(from, event)).code, 'report_status');
      else assert.equal(reportTransition(from, event), to);
    });
  }
});

describe('corrections never overwrite', () => {
  const first: ObservationVersion = {
    version: 1,
    value: { type: 'quantity', value: 6.8, unit: 'mmol/L' },
    status: 'final',
    recordedAt: new Date('2025-03-01T09:00:00Z'),
    recordedBy: 7,
    reason: null,
  };
  const change = {
    correcting: 1,
    value: { type: 'quantity' as const, value: 4.1, unit: 'mmol/L' },
    by: 8,
    at: new Date('2025-03-01T10:00:00Z'),
    reason: 'Haemolysed sample re-run',
  };
  it('makes the correction the next version, with who, when and why', () => {
    assert.deepEqual(correction([first], change, 'final'), {
      version: 2,
      value: change.value,
      status: 'corrected',
      recordedAt: change.at,
      recordedBy: 8,
      reason: 'Haemolysed sample re-run',
    });
  });
  it('refuses a correction of a stale version with 409 naming the current one', () => {
    const second = correction([first], change, 'final');
    const error = thrown(() => correction([first, second], change, 'corrected'));
    assert.equal(error.code, 'result_changed');
    assert.match(error.message, /version 2/);
  });
  it('keeps a value changed before sign-off preliminary', () => {
    assert.equal(correction([first], change, 'preliminary').status, 'preliminary');
  });
});

describe('release to the patient', () => {
  const signedOffAt = new Date('2025-03-01T12:00:00Z');
  const now = new Date('2025-03-04T12:00:00Z');
  const final = { status: 'final' as const, releasedAt: null, signedOffAt };
  it('shows a report a doctor released', () => {
    assert.equal(isReleased({ ...final, releasedAt: new Date('2025-03-02T00:00:00Z') }, now, null), true);
  });
  it('never shows a report by itself when the clinic sets no auto-release (the default)', () => {
    assert.equal(isReleased(final, new Date('2030-01-01T00:00:00Z'), null), false);
  });
  it('shows a signed-off report once its auto-release days have passed, not before', () => {
    assert.equal(isReleased(final, now, 3), true);
    assert.equal(isReleased(final, new Date(now.getTime() - 1), 3), false);
    assert.deepEqual(autoReleaseAt(signedOffAt, 3), now);
  });
  it('never shows a preliminary report, released or not', () => {
    assert.equal(isReleased({ status: 'preliminary', releasedAt: now, signedOffAt: null }, now, 0), false);
  });
  const version = (value: number, iso: string) => ({ value, recordedAt: new Date(iso) });
  const v1 = version(7, '2025-03-01T10:00:00Z');
  const v2 = version(5.4, '2025-03-01T11:00:00Z');
  const v3 = version(5, '2025-03-03T09:00:00Z');
  it('shows the patient no history of a value corrected before release: they never saw the first', () => {
    assert.deepEqual(historySinceRelease([v1, v2], new Date('2025-03-02T00:00:00Z')), []);
  });
  it('shows the value released and each correction after it, never one corrected before release', () => {
    assert.deepEqual(historySinceRelease([v1, v2, v3], new Date('2025-03-02T00:00:00Z')), [v2, v3]);
    assert.deepEqual(historySinceRelease([v1, v3], new Date('2025-03-02T00:00:00Z')), [v1, v3]);
  });
  it('shows nothing of a report not released, and reads a correction at the instant of release as before it', () => {
    assert.deepEqual(historySinceRelease([v1, v2], null), []);
    assert.deepEqual(historySinceRelease([v1, v2], v2.recordedAt), []);
  });
  it('reads RESULTS_AUTO_RELEASE_DAYS: unset and never are never, days are days', () => {
    assert.equal(readAutoReleaseDays(undefined), null);
    assert.equal(readAutoReleaseDays('never'), null);
    assert.equal(readAutoReleaseDays('7'), 7);
    assert.throws(() => readAutoReleaseDays('-1'));
    assert.throws(() => readAutoReleaseDays('2.5'));
  });
});

describe('critical escalation', () => {
  const raisedAt = new Date('2025-03-01T09:00:00Z');
  const alert = { raisedAt, orderingDoctorId: 1, departmentId: 10 };
  const at = (minutes: number) => new Date(raisedAt.getTime() + minutes * 60_000);
  it('tells the ordering doctor at once and the department at 30 minutes', () => {
    assert.deepEqual(criticalNotices(raisedAt), [
      { to: 'ordering_doctor', at: raisedAt },
      { to: 'department', at: at(30) },
    ]);
  });
  it('lets the ordering doctor acknowledge at once', () => {
    assert.equal(mayAcknowledge(alert, { id: 1, departmentId: 99 }, raisedAt), true);
  });
  it('lets a doctor of the department acknowledge from 30 minutes, not a minute before', () => {
    assert.equal(mayAcknowledge(alert, { id: 2, departmentId: 10 }, at(29)), false);
    assert.equal(mayAcknowledge(alert, { id: 2, departmentId: 10 }, at(30)), true);
  });
  it('never lets a doctor of another department acknowledge', () => {
    assert.equal(mayAcknowledge(alert, { id: 3, departmentId: 11 }, at(600)), false);
  });
});

describe('orders', () => {
  const test = (id: number, extra: Partial<CatalogueTest> = {}): CatalogueTest => ({
    id,
    kind: 'test',
    category: 'laboratory',
    codeSystem: 'loinc',
    code: `${id}-0`,
    name: `Test ${id}`,
    specimenType: 'blood',
    resultType: 'quantity',
    unit: 'g/dL',
    physicalLow: null,
    physicalHigh: null,
    answers: [],
    ranges: [],
    criticalLimits: [],
    priceCents: 1000,
    turnaroundMinutes: 60,
    memberIds: [],
    active: true,
    rowVersion: 1,
    ...extra,
  });
  const catalogue = new Map([
    [1, test(1)],
    [2, test(2)],
    [3, test(3, { kind: 'panel', memberIds: [1, 2], priceCents: 1500 })],
    [4, test(4, { active: false })],
  ]);
  it('keeps the order number whole, leading zeros and all', () => {
    assert.equal(orderNumberOf('2025-03-01', 42), 'L20250301-000042');
  });
  it('expands a panel into its members, each test once, and bills the panel as ordered', () => {
    const { billed, items } = orderLines([3, 1], catalogue);
    assert.deepEqual(
      billed.map((t) => t.id),
      [3, 1],
    );
    assert.deepEqual(
      items.map((i) => [i.test.id, i.panelId]),
      [
        [1, 3],
        [2, 3],
      ],
    );
  });
  it('refuses an inactive or unknown test, and an empty order, naming test_ids', () => {
    assert.ok(thrown(() => orderLines([4], catalogue)).fields?.test_ids);
    assert.ok(thrown(() => orderLines([99], catalogue)).fields?.test_ids);
    assert.ok(thrown(() => orderLines([], catalogue)).fields?.test_ids);
  });
  it('cancels an order only before collection', () => {
    requireCancellable({ status: 'ordered', itemStatuses: ['waiting', 'rejected'] });
    assert.equal(
      thrown(() => requireCancellable({ status: 'collected', itemStatuses: ['collected'] })).code,
      'order_collected',
    );
    assert.equal(thrown(() => requireCancellable({ status: 'cancelled', itemStatuses: [] })).code, 'order_cancelled');
  });
  it('takes a result only for a collected test of a live order', () => {
    requireResultable({ status: 'collected' }, { status: 'collected', specimenType: 'blood' });
    requireResultable({ status: 'ordered' }, { status: 'waiting', specimenType: 'none' });
    assert.equal(
      thrown(() => requireResultable({ status: 'cancelled' }, { status: 'cancelled', specimenType: 'blood' })).code,
      'order_cancelled',
    );
    assert.equal(
      thrown(() => requireResultable({ status: 'ordered' }, { status: 'waiting', specimenType: 'blood' })).code,
      'not_collected',
    );
    assert.equal(
      thrown(() => requireResultable({ status: 'ordered' }, { status: 'rejected', specimenType: 'blood' })).code,
      'specimen_rejected',
    );
  });
});
