import assert from 'node:assert/strict';
import type { Encounter, Location } from '@medplum/fhirtypes';
import { describe, it } from '../../testing/node-test.ts';
import { assertValidFhir } from '../../testing/fhir-validate.ts';
import type { BedRow } from './bed-location.ts';
import type { FhirContext } from './fhir.ts';
import { RESOURCES } from './resources.ts';
import type { StayRow } from './stay-encounter.ts';

const ctx: FhirContext = {
  base: 'https://clinic.example.org/fhir/R4',
  clinic: { name: 'Medora Clinic', address: '1 Main St', phone: '+1 555 0100', timeZone: 'Europe/Berlin' },
  clinical: true,
};
const at = (iso: string) => new Date(`2026-06-${iso}Z`);

const stay: StayRow = {
  kind: 'stay',
  id: 21,
  updatedAt: at('12T10:00:00'),
  version: 4,
  patient: { id: 1, name: 'Paula Patient' },
  doctor: { id: 2, name: 'Dr. Grey' },
  ward: { id: 6, name: 'Surgery' },
  reason: 'Appendectomy',
  status: 'discharged',
  admittedAt: at('10T08:00:00'),
  dischargedAt: at('12T10:00:00'),
  beds: [
    { bedId: 31, label: 'A', startedAt: at('10T08:00:00'), endedAt: at('11T09:00:00') },
    { bedId: 32, label: 'B', startedAt: at('11T09:00:00'), endedAt: at('12T10:00:00') },
  ],
};
const bed: BedRow = {
  kind: 'bed',
  id: 31,
  updatedAt: at('11T09:00:00'),
  label: 'A',
  room: { id: 4, name: 'Room 4' },
  ward: { id: 6, name: 'Surgery' },
  housekeeping: 'ready',
  retired: false,
  holder: 'admitted',
};

const encounter = (row: StayRow, clinical = true) => RESOURCES.Encounter.toFhir(row, { ...ctx, clinical }) as Encounter;
const location = (row: BedRow) => RESOURCES.Location.toFhir(row, ctx) as Location;

describe('the FHIR mappers of a stay and a bed', () => {
  it('maps a stay to a valid inpatient Encounter with its beds in order', () => {
    const resource = encounter(stay);
    assertValidFhir(resource);
    assert.deepEqual(
      [resource.id, resource.status, resource.class.code, resource.meta?.versionId],
      ['stay-21', 'finished', 'IMP', '4'],
    );
    assert.deepEqual(resource.period, { start: '2026-06-10T08:00:00.000Z', end: '2026-06-12T10:00:00.000Z' });
    assert.deepEqual(
      resource.location?.map((l) => [l.location.reference, l.status, l.period?.start, l.period?.end]),
      [
        ['Location/bed-31', 'completed', '2026-06-10T08:00:00.000Z', '2026-06-11T09:00:00.000Z'],
        ['Location/bed-32', 'completed', '2026-06-11T09:00:00.000Z', '2026-06-12T10:00:00.000Z'],
      ],
    );
    assert.ok(resource.hospitalization?.dischargeDisposition);
  });

  it('keeps a stay in progress open in its current bed, without a discharge', () => {
    const resource = encounter({
      ...stay,
      status: 'admitted',
      dischargedAt: null,
      beds: [{ bedId: 31, label: 'A', startedAt: at('10T08:00:00'), endedAt: null }],
    });
    assertValidFhir(resource);
    assert.equal(resource.status, 'in-progress');
    assert.deepEqual(resource.location?.[0]?.status, 'active');
    assert.equal(resource.period?.end, undefined);
    assert.equal(resource.hospitalization, undefined);
  });

  it("leaves the reason for the stay out of the front desk's Encounter", () => {
    assert.deepEqual(encounter(stay).reasonCode, [{ text: 'Appendectomy' }]);
    assert.equal(encounter(stay, false).reasonCode, undefined);
  });

  it('maps a bed to a valid Location of physical type bd inside its room, its status on v2-0116', () => {
    const resource = location(bed);
    assertValidFhir(resource);
    assert.deepEqual(
      [resource.id, resource.physicalType?.coding?.[0]?.code, resource.partOf?.reference],
      ['bed-31', 'bd', 'Location/4'],
    );
    const status = (row: Partial<BedRow>) => location({ ...bed, ...row }).operationalStatus?.code;
    assert.deepEqual(
      [
        status({}),
        status({ holder: 'discharge_ordered' }),
        status({ holder: 'reserved' }),
        status({ holder: null }),
        status({ holder: null, housekeeping: 'cleaning' }),
        status({ holder: null, housekeeping: 'maintenance' }),
        status({ holder: null, housekeeping: 'isolation' }),
      ],
      ['O', 'O', 'U', 'U', 'H', 'C', 'I'],
    );
    assert.equal(location({ ...bed, holder: null, housekeeping: 'maintenance' }).status, 'suspended');
    assert.equal(location({ ...bed, holder: null, retired: true }).status, 'inactive');
  });

  it('reads stay and bed ids beside the numeric ones, and nothing else', () => {
    assert.deepEqual(['7', 'stay-21', 'stay-0', 'bed-21', 'stay-x'].map(RESOURCES.Encounter.isId), [
      true,
      true,
      false,
      false,
      false,
    ]);
    assert.deepEqual(['4', 'bed-31', 'stay-21', 'bed-'].map(RESOURCES.Location.isId), [true, true, false, false]);
  });
});
