import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { assertValidFhir } from '../../testing/fhir-validate.ts';
import type { FhirContext } from './fhir.ts';
import { RESOURCES, type FhirRows } from './resources.ts';
import type { FhirType } from './resource-def.ts';
import { MEDORA_CODE_SYSTEMS } from './code-systems.ts';
import { allergyIntoleranceResource } from './allergy-intolerance.ts';
import { invoiceResource } from './invoice.ts';
import { medicationRequestResource } from './medication-request.ts';

const ctx: FhirContext = {
  base: 'https://clinic.example.org/fhir/R4',
  systems: 'https://clinic.example.org/fhir/R4',
  clinic: { name: 'Medora Clinic', address: '1 Main St', phone: '+1 555 0100', timeZone: 'Europe/Berlin' },
  clinical: true,
};
const at = new Date('2026-06-10T08:00:00.123Z');
const v = { updatedAt: at, version: 3 };
const visit = {
  id: 7,
  ...v,
  patient: { id: 1, name: 'Paula Patient' },
  doctor: { id: 2, name: 'Dr. Grey' },
  room: { id: 4, name: 'Room 4' },
  scheduleId: 9,
  date: '2026-06-10',
  start: new Date('2026-06-10T07:00:00Z'),
  end: new Date('2026-06-10T07:30:00Z'),
  created: new Date('2026-06-01T10:00:00Z'),
};

/** One row of each type, as the adapters hand them over. */
const ROWS: { [T in FhirType]: FhirRows[T] } = {
  Patient: {
    id: 1,
    ...v,
    name: 'Paula Patient',
    email: 'paula@example.test',
    phone: '+1 555',
    birthdate: '1990-05-17',
    gender: 'female',
    active: true,
  },
  Practitioner: {
    id: 2,
    ...v,
    name: 'Dr. Grey',
    email: 'grey@example.test',
    phone: '',
    gender: null,
    birthdate: null,
    address: '2 Side St',
    active: true,
  },
  PractitionerRole: {
    id: 2,
    ...v,
    name: 'Dr. Grey',
    active: true,
    specialization: { id: 5, name: 'Cardiology' },
    department: { id: 6, name: 'Heart' },
  },
  Organization: null,
  Location: { kind: 'room', id: 4, ...v, name: 'Room 4', department: { id: 6, name: 'Heart' } },
  HealthcareService: { id: 6, ...v, name: 'Heart', description: '' },
  Schedule: { id: 2, ...v, name: 'Dr. Grey', active: true },
  Slot: {
    id: '9-2026-06-15',
    doctorId: 2,
    start: new Date('2026-06-15T07:00:00Z'),
    end: new Date('2026-06-15T07:30:00Z'),
    status: 'free',
    updatedAt: at,
  },
  Appointment: { ...visit, status: 'no_show' },
  Encounter: { ...visit, kind: 'visit', status: 'completed', record: { id: 11, serviceType: 'Consultation' } },
  Condition: {
    id: 11,
    ...v,
    patient: visit.patient,
    doctor: visit.doctor,
    encounterId: 7,
    disease: { id: 3, name: 'Influenza' },
    diagnosis: 'Seasonal flu',
    prescriptions: 'Oseltamivir 75 mg twice daily',
    labTests: '',
    recordDate: '2026-06-10',
  },
  Invoice: {
    id: 12,
    ...v,
    patient: visit.patient,
    serviceDetails: 'Consultation',
    amountCents: 12050,
    creditedCents: 0,
    date: '2026-06-10',
    paid: true,
  },
  ServiceRequest: {
    id: 21,
    updatedAt: at,
    orderNumber: 'L20260610-000042',
    patient: visit.patient,
    doctor: visit.doctor,
    appointmentId: 7,
    admissionId: null,
    priority: 'urgent',
    clinicalNote: 'Thirsty, tired',
    orderedAt: at,
    status: 'resulted',
    category: 'laboratory',
    test: { system: 'loinc', code: '2823-3', name: 'Potassium' },
    specimenId: 22,
  },
  Specimen: {
    id: 22,
    updatedAt: at,
    specimenCode: 'S-000022',
    patient: visit.patient,
    requestId: 21,
    type: 'serum',
    collectedAt: at,
    collector: 'Lee Lab',
    rejected: { reason: 'haemolysed', note: '' },
  },
  Observation: {
    id: 23,
    ...v,
    patient: visit.patient,
    category: 'laboratory',
    test: { system: 'loinc', code: '2823-3', name: 'Potassium' },
    value: { type: 'quantity', value: 6.8, unit: 'mmol/L' },
    interpretation: 'HH',
    range: { low: 3.5, high: 5.1 },
    status: 'corrected',
    effectiveAt: at,
    issued: at,
    requestId: 21,
    reportId: 24,
    specimenId: 22,
    fhirId: '23',
    components: [],
    method: null,
    appointmentId: null,
    admissionId: null,
  },
  DiagnosticReport: {
    id: 24,
    ...v,
    orderNumber: 'L20260610-000042',
    patient: visit.patient,
    doctor: visit.doctor,
    appointmentId: null,
    admissionId: 5,
    status: 'final',
    code: { system: 'loinc', code: '11502-2', name: 'Laboratory report' },
    categories: ['imaging', 'laboratory'],
    effectiveAt: at,
    issued: at,
    requestIds: [21],
    specimenIds: [22],
    resultIds: [23],
  },
  Medication: {
    ...{
      id: 30,
      genericName: 'Amoxicillin',
      form: 'capsule',
      strength: '500 mg',
      routes: ['oral'],
      doseUnit: 'mg',
      priceCents: 25,
      active: true,
    },
    updatedAt: at,
  },
  MedicationRequest: {
    id: 31,
    updatedAt: at,
    patient: { id: 1, name: 'Paula Patient', birthDate: '1990-05-17' },
    doctor: visit.doctor,
    source: { kind: 'stay', admissionId: 5 },
    medicine: {
      id: 30,
      genericName: 'Amoxicillin',
      form: 'capsule',
      strength: '500 mg',
      routes: ['oral'],
      doseUnit: 'mg',
      priceCents: 25,
      active: true,
    },
    dose: { amount: 500, unit: 'mg' },
    route: 'oral',
    frequency: { kind: 'every_hours', hours: 8 },
    durationDays: 5,
    quantity: 15,
    instructions: 'After food',
    continueOnDischarge: true,
    allergyOverride: { reason: 'Tolerated amoxicillin before', allergies: ['Penicillin'] },
    startDate: '2026-06-10',
    startsAt: at,
    endsAt: new Date('2026-06-15T08:00:00Z'),
    requestedAt: at,
    status: 'active',
    discontinuedAt: null,
    discontinuedReason: null,
  },
  MedicationAdministration: {
    id: 32,
    requestId: 31,
    dueAt: at,
    status: 'held',
    givenAt: null,
    amount: null,
    unit: null,
    reason: 'Nil by mouth before theatre',
    recordedBy: 'Nina Nurse',
    recordedAt: at,
    updatedAt: at,
    patient: visit.patient,
    admissionId: 5,
    medicine: { id: 30, name: 'Amoxicillin 500 mg capsule' },
    route: 'oral',
  },
  AllergyIntolerance: {
    id: 33,
    updatedAt: at,
    patient: visit.patient,
    substance: { kind: 'text', text: 'Penicillin' },
    type: 'allergy',
    reaction: 'Hives',
    severity: 'moderate',
    status: 'active',
    recordedBy: { userId: 20, name: 'Dr. Grey' },
    recordedAt: at,
  },
  AuditEvent: {
    id: 13,
    at,
    actor: { userId: 20, name: 'Dr. Grey', role: 'doctor', patientId: null, doctorId: 2 },
    action: 'refused',
    entity: 'fhir_Encounter',
    entityId: '7',
    patientId: 1,
  },
  CodeSystem: 'disease',
};

describe('the FHIR mappers', () => {
  for (const type of Object.keys(ROWS) as FhirType[]) {
    it(`maps a ${type} row to a valid R4 ${type}`, () => {
      const resource = RESOURCES[type].toFhir(ROWS[type] as never, ctx);
      assert.equal(resource.resourceType, type);
      assertValidFhir(resource);
    });
  }

  it('shows an allergy override to the staff and never to the patient', () => {
    const note = (staff: boolean) => medicationRequestResource.toFhir(ROWS.MedicationRequest, { ...ctx, staff }).note;
    assert.deepEqual(note(true), [{ text: 'Prescribed despite a recorded allergy: Tolerated amoxicillin before' }]);
    assert.equal(note(false), undefined);
  });

  it('states "no known allergies" coded, and an allergy entered in error without a clinical status', () => {
    const none = allergyIntoleranceResource.toFhir(
      { ...ROWS.AllergyIntolerance, substance: { kind: 'none_known' } },
      ctx,
    );
    assert.equal(none.code?.coding?.[0]?.code, '716186003');
    assertValidFhir(none);
    const wrong = allergyIntoleranceResource.toFhir({ ...ROWS.AllergyIntolerance, status: 'entered-in-error' }, ctx);
    assert.equal(wrong.clinicalStatus, undefined);
    assertValidFhir(wrong);
  });

  it("notes a record's diagnosis and prescriptions on its Condition, and no empty lab tests", () => {
    const condition = RESOURCES.Condition.toFhir(ROWS.Condition, ctx) as { note: { text: string }[] };
    assert.deepEqual(
      condition.note.map((n) => n.text),
      ['Seasonal flu', 'Prescriptions: Oseltamivir 75 mg twice daily'],
    );
  });

  it('takes the id, lastUpdated and versionId from the row', () => {
    const patient = RESOURCES.Patient.toFhir(ROWS.Patient, ctx);
    assert.deepEqual([patient.id, patient.meta], ['1', { versionId: '3', lastUpdated: '2026-06-10T08:00:00.123Z' }]);
  });

  it("speaks FHIR's value sets for statuses and the encounter's class", () => {
    const statuses = (['scheduled', 'checked_in', 'completed', 'no_show', 'cancelled'] as const).map(
      (status) => RESOURCES.Appointment.toFhir({ ...visit, status }, ctx) as { status: string },
    );
    assert.deepEqual(
      statuses.map((a) => a.status),
      ['booked', 'arrived', 'fulfilled', 'noshow', 'cancelled'],
    );
    const encounter = RESOURCES.Encounter.toFhir(ROWS.Encounter, ctx) as {
      status: string;
      class: { system: string; code: string };
    };
    assert.equal(encounter.status, 'finished');
    assert.deepEqual(
      [encounter.class.system, encounter.class.code],
      ['http://terminology.hl7.org/CodeSystem/v3-ActCode', 'AMB'],
    );
  });

  it("leaves the diagnosis out of the front desk's Encounter", () => {
    const clinical = RESOURCES.Encounter.toFhir(ROWS.Encounter, ctx) as { diagnosis?: unknown[] };
    const desk = RESOURCES.Encounter.toFhir(ROWS.Encounter, { ...ctx, clinical: false }) as { diagnosis?: unknown[] };
    assert.equal(clinical.diagnosis?.length, 1);
    assert.equal(desk.diagnosis, undefined);
  });

  it("codes diseases in a Medora code system under the clinic's URL, one that is declared", () => {
    const condition = RESOURCES.Condition.toFhir(ROWS.Condition, ctx) as {
      code: { coding: { system: string; code: string }[] };
    };
    assert.deepEqual(condition.code.coding[0], {
      system: `${ctx.base}/CodeSystem/disease`,
      code: '3',
      display: 'Influenza',
    });
    for (const id of Object.keys(MEDORA_CODE_SYSTEMS)) {
      assert.equal(
        (RESOURCES.CodeSystem.toFhir(id as never, ctx) as { url: string }).url,
        `${ctx.base}/CodeSystem/${id}`,
      );
    }
  });

  it('bills in dollars from cents', () => {
    const invoice = RESOURCES.Invoice.toFhir(ROWS.Invoice, ctx) as {
      status: string;
      totalGross: { value: number; currency: string };
    };
    assert.deepEqual([invoice.status, invoice.totalGross], ['balanced', { value: 120.5, currency: 'USD' }]);
  });
});

describe('a credited bill as an Invoice', () => {
  it('shows its credit notes as a discount and the net total, and stays valid R4', () => {
    const invoice = invoiceResource.toFhir({ ...ROWS.Invoice, creditedCents: 2050 }, ctx);
    assertValidFhir(invoice);
    assert.deepEqual(invoice.lineItem?.[0]?.priceComponent, [
      { type: 'base', amount: { value: 120.5, currency: 'USD' } },
      { type: 'discount', amount: { value: 20.5, currency: 'USD' } },
    ]);
    assert.deepEqual([invoice.totalNet?.value, invoice.totalGross?.value], [100, 100]);
  });
});
