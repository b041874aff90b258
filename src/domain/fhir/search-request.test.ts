import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { DomainError } from '../shared/errors.ts';
import { dateRange } from './date-param.ts';
import { RESOURCES } from './resources.ts';
import type { ResourceDef } from './resource-def.ts';
import { parseSearch } from './search-request.ts';

const ctx = { base: 'https://clinic.example.org/fhir/R4' };
const parse = (type: keyof typeof RESOURCES, query: string, strict = false) =>
  parseSearch(RESOURCES[type] as ResourceDef<unknown>, [...new URLSearchParams(query)], {
    strict,
    ctx,
    timeZone: 'Europe/Berlin',
  });
const isInvalid = (error: unknown) => error instanceof DomainError && error.kind === 'invalid';

describe('FHIR search parameters', () => {
  it('turns FHIR codes into the stored values they stand for, OR-ed by commas', () => {
    assert.deepEqual(parse('Appointment', 'status=booked,noshow').criteria, [
      { param: 'status', kind: 'in', values: ['scheduled', 'no_show'] },
    ]);
    assert.deepEqual(parse('Invoice', 'status=balanced').criteria, [{ param: 'status', kind: 'in', values: ['paid'] }]);
  });

  it('answers a code that stands for nothing with an empty search, not an error', () => {
    assert.equal(parse('Appointment', 'status=proposed').matchesNothing, true);
    assert.equal(parse('Patient', 'identifier=https://elsewhere.example|12').matchesNothing, true);
    assert.equal(parse('Patient', `identifier=${ctx.base}/NamingSystem/patient-id|12`).matchesNothing, false);
  });

  it('reads references as an id, Type/id or an absolute URL, and refuses another type', () => {
    for (const value of ['7', 'Patient/7', 'https://x.example/fhir/R4/Patient/7']) {
      assert.deepEqual(parse('Encounter', `patient=${encodeURIComponent(value)}`).criteria, [
        { param: 'patient', kind: 'in', values: ['7'] },
      ]);
    }
    assert.throws(() => parse('Encounter', 'patient=Practitioner/7'), isInvalid);
  });

  it('reads _count, _sort and _total, and refuses values out of range', () => {
    const request = parse('Appointment', '_count=100&_sort=-date&_total=none');
    assert.deepEqual([request.count, request.sort, request.total], [100, { key: 'date', descending: true }, false]);
    assert.throws(() => parse('Appointment', '_count=501'), isInvalid);
    assert.throws(() => parse('Appointment', '_total=some'), isInvalid);
  });

  it('ignores what it does not support, with a reason, unless the client asked for strict handling', () => {
    const lenient = parse('Patient', 'name:exact=Pat&_sort=birthdate&_summary=true');
    assert.equal(lenient.ignored.length, 3);
    assert.deepEqual(lenient.sort, { key: '_id', descending: false });
    assert.throws(() => parse('Patient', '_summary=true', true), isInvalid);
    assert.throws(() => parse('Slot', '_sort=_lastUpdated', true), isInvalid, 'a Slot has no _lastUpdated');
  });

  it('reads date prefixes as ranges of instants, on the clinic clock when no zone is given', () => {
    const day = dateRange('date', '2026-06-10', 'Europe/Berlin');
    assert.deepEqual(day, {
      gte: new Date('2026-06-09T22:00:00Z'),
      lt: new Date('2026-06-10T22:00:00Z'),
      negate: false,
    });
    assert.deepEqual(dateRange('date', 'ge2026-06', 'UTC'), { gte: new Date('2026-06-01T00:00:00Z'), negate: false });
    assert.deepEqual(dateRange('date', 'lt2026', 'UTC'), { lt: new Date('2026-01-01T00:00:00Z'), negate: false });
    assert.deepEqual(dateRange('date', 'le2026-12', 'UTC'), { lt: new Date('2027-01-01T00:00:00Z'), negate: false });
    assert.deepEqual(dateRange('date', 'gt2026-06-10T09:30:00+02:00', 'UTC'), {
      gte: new Date('2026-06-10T07:30:01Z'),
      negate: false,
    });
    assert.deepEqual(dateRange('date', 'ne2026-06-10T09:30Z', 'UTC'), {
      gte: new Date('2026-06-10T09:30:00Z'),
      lt: new Date('2026-06-10T09:31:00Z'),
      negate: true,
    });
    for (const bad of ['2026-13-01', '2026-02-30', 'tomorrow', 'xx2026', '2026-06-10T25:00Z'])
      assert.throws(() => dateRange('date', bad, 'UTC'), isInvalid, bad);
  });
});
