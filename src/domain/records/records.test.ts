import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../audit/audit.ts';
import type { Bill } from '../billing/billing.ts';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import type { Message } from '../notifications/message.ts';
import type { RecordsDeps } from './ports.ts';
import type { Appointment } from '../scheduling/scheduling.ts';
import { readVisit, type MedicalRecord } from './records.ts';
import { amendRecord, recordVisit, showMyPatient } from './use-cases.ts';
import { present } from '../../testing/assert.ts';

const TODAY = '2026-06-10';
const knownDisease = async (id: number) => id === 7;
const form = { disease_id: 7, diagnosis: 'Flu', service_type: 'Consultation', cost: '45.5' };
const doctor: Actor = { userId: 1, role: 'doctor', name: 'Dr. Grey', doctorId: 3, requestId: 'req-1' };

async function fieldsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError && error.kind === 'invalid');
  return Object.keys(present(error.fields)).sort();
}

describe('readVisit', () => {
  it('names disease, diagnosis and service type when missing', async () => {
    assert.deepEqual(await fieldsOf(readVisit({}, TODAY, knownDisease)), ['diagnosis', 'disease_id', 'service_type']);
  });

  it('reads the cost as cents and dates the visit today by default', async () => {
    const visit = await readVisit(form, TODAY, knownDisease);
    assert.equal(visit.costCents, 4550);
    assert.equal(visit.recordDate, TODAY);
    assert.equal(visit.labTests, '');
  });

  it('takes a missing cost as a free visit', async () => {
    assert.equal((await readVisit({ ...form, cost: '' }, TODAY, knownDisease)).costCents, 0);
  });

  it('refuses an unknown disease, a bad cost and a future date together', async () => {
    const fields = await fieldsOf(
      readVisit({ ...form, disease_id: 8, cost: '1.234', record_date: '2026-06-11' }, TODAY, knownDisease),
    );
    assert.deepEqual(fields, ['cost', 'disease_id', 'record_date']);
  });

  it('refuses a cost above the ceiling', async () => {
    assert.deepEqual(await fieldsOf(readVisit({ ...form, cost: 1_000_001 }, TODAY, knownDisease)), ['cost']);
  });
});

/** Records deps over arrays; `transaction` runs in place, which is all a unit test of the rules needs. */
function fakeRecordsDeps(appointment: Appointment) {
  const records: MedicalRecord[] = [];
  const bills: Bill[] = [];
  const audit: AuditEntry[] = [];
  const messages: Message[] = [];
  const deps: RecordsDeps = {
    outbox: { enqueue: async (...m) => void messages.push(...m), withdraw: async () => {} },
    clinic: { name: 'Test Clinic', timeZone: 'Europe/Berlin', locale: 'en-US', mailFrom: 'clinic@example.test' },
    clock: fixedClock('2026-06-10T10:00:00Z'),
    timeZone: 'Europe/Berlin',
    diseases: { exists: knownDisease },
    appointments: {
      lock: async (id) => (id === appointment.id ? { ...appointment } : undefined),
      find: async (id) => (id === appointment.id ? { ...appointment } : undefined),
      markCompleted: async () => {
        appointment = { ...appointment, status: 'completed' };
      },
    },
    records: {
      create: async (r) => {
        const disease = { id: r.diseaseId, name: 'Flu' };
        const first = {
          version: 1,
          disease,
          diagnosis: r.diagnosis,
          labTests: r.labTests,
          prescriptions: r.prescriptions,
          writtenBy: { id: 1, name: 'Dr. Grey' },
          writtenAt: new Date(0),
          reason: null,
        };
        const record: MedicalRecord = {
          ...r,
          id: records.length + 1,
          disease,
          doctor: { id: r.doctorId, name: 'Dr. Grey' },
          history: [first],
        };
        records.push(record);
        return record;
      },
      lock: async (id) => records.find((r) => r.id === id),
      amend: async (id, c, by) => {
        const record = present(records.find((r) => r.id === id));
        const disease = { id: c.diseaseId, name: 'Flu' };
        Object.assign(record, { ...c, disease });
        record.history.push({
          ...c,
          disease,
          version: record.history.length + 1,
          writtenBy: { id: by.userId, name: 'someone' },
          writtenAt: by.at,
          reason: by.reason,
        });
        return { ...record, history: [...record.history] };
      },
      listForPatient: async (patientId) => records.filter((r) => r.patientId === patientId),
    },
    bills: {
      create: async (b) => {
        const bill: Bill = {
          id: bills.length + 1,
          patient: { id: b.patientId, name: 'Pat', email: 'pat@example.test' },
          patientBirthDate: null,
          serviceDetails: b.serviceDetails,
          amountCents: b.amountCents,
          paidCents: 0,
          creditedCents: 0,
          supplementsId: null,
          adjustments: [],
          billingDate: b.billingDate,
          paymentStatus: 'unpaid',
        };
        bills.push(bill);
        return bill;
      },
      find: async () => undefined,
      listForPatient: async () => assert.fail('not used'),
      lock: async () => undefined,
      addPaid: async () => assert.fail('not used'),
      visitOf: async () => undefined,
      outstandingFor: async () => assert.fail('not used'),
    },
    patients: { list: async () => assert.fail('not used'), find: async () => undefined },
    careTeam: { reach: async () => new Map(), onWard: async () => new Set<number>() },
    audit: { record: async (...e) => void audit.push(...e) },
    transaction: (fn) => fn(deps),
  };
  return { deps, records, bills, audit, messages };
}

const scheduled: Appointment = {
  id: 11,
  date: TODAY,
  startTime: '09:00',
  endTime: '09:30',
  status: 'scheduled',
  patient: { id: 5, name: 'Pat', email: 'pat@example.test' },
  patientBirthDate: null,
  doctor: { id: 3, name: 'Dr. Grey', email: 'grey@example.test' },
  department: null,
  room: null,
  sequence: 0,
};

describe('recordVisit', () => {
  it('bills the service at its cost on the record date and audits each write with the request id', async () => {
    const { deps, bills, audit, messages } = fakeRecordsDeps(scheduled);
    const answer = await recordVisit(deps, { appointmentId: '11', body: form }, doctor);
    assert.deepEqual(
      messages.map((m) => [m.kind, m.to, m.subject]),
      [['bill_issued', 'pat@example.test', 'Your bill of $45.50']],
    );
    assert.equal(answer.appointment.status, 'completed');
    assert.deepEqual(
      bills.map((b) => [b.patient.id, b.serviceDetails, b.amountCents, b.billingDate]),
      [[5, 'Consultation', 4550, TODAY]],
    );
    assert.deepEqual(
      audit.map((e) => `${e.action} ${e.entity} ${e.patientId} ${e.actor?.requestId}`),
      ['create medical_record 5 req-1', 'update appointment 5 req-1', 'create billing 5 req-1'],
    );
  });

  it('raises no bill for a free visit', async () => {
    const { deps, bills, records, messages } = fakeRecordsDeps(scheduled);
    const answer = await recordVisit(deps, { appointmentId: 11, body: { ...form, cost: '0.00' } }, doctor);
    assert.equal(answer.billing, null);
    assert.equal(messages.length, 0, 'and sends none');
    assert.equal(records.length, 1);
    assert.equal(bills.length, 0);
  });

  it("treats another doctor's appointment as not found, like a missing one, and audits both attempts", async () => {
    const { deps, records, audit } = fakeRecordsDeps({ ...scheduled, doctor: { ...scheduled.doctor, id: 99 } });
    await assert.rejects(recordVisit(deps, { appointmentId: 11, body: form }, doctor), {
      kind: 'not_found',
      message: 'Appointment not found',
    });
    await assert.rejects(recordVisit(deps, { appointmentId: 12, body: form }, doctor), {
      kind: 'not_found',
      message: 'Appointment not found',
    });
    assert.equal(records.length, 0);
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity, e.entityId, e.patientId, e.actor?.userId, e.details]),
      [
        ['refused', 'appointment', 11, 5, doctor.userId, { attempt: 'record_visit' }],
        ['refused', 'appointment', 12, null, doctor.userId, { attempt: 'record_visit' }],
      ],
    );
  });

  it("audits a doctor's attempt on a patient they never saw, answered as not found", async () => {
    const { deps, audit } = fakeRecordsDeps(scheduled);
    await assert.rejects(showMyPatient(deps, '5', doctor), { kind: 'not_found', message: 'Patient not found' });
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity, e.entityId, e.details]),
      [['refused', 'patient', 5, { attempt: 'read_records' }]],
    );
  });

  it('refuses an appointment that is completed, cancelled or a no-show', async () => {
    for (const status of ['completed', 'cancelled', 'no_show'] as const) {
      const { deps } = fakeRecordsDeps({ ...scheduled, status });
      await assert.rejects(recordVisit(deps, { appointmentId: 11, body: form }, doctor), {
        kind: 'conflict',
        code: 'invalid_transition',
      });
    }
  });

  it('records a visit the desk checked in', async () => {
    const { deps } = fakeRecordsDeps({ ...scheduled, status: 'checked_in', startTime: '12:00' });
    assert.equal((await recordVisit(deps, { appointmentId: 11, body: form }, doctor)).appointment.status, 'completed');
  });

  it('refuses a visit that has not begun yet, saying from when it can be recorded', async () => {
    const { deps, records } = fakeRecordsDeps({ ...scheduled, startTime: '14:30' });
    await assert.rejects(recordVisit(deps, { appointmentId: 11, body: form }, doctor), {
      kind: 'conflict',
      code: 'visit_not_started',
      message: 'This visit can be recorded from 14:30 on 2026-06-10',
    });
    assert.equal(records.length, 0);
  });

  it('records a visit from its start time on (12:00 in Berlin)', async () => {
    const { deps } = fakeRecordsDeps({ ...scheduled, startTime: '12:00' });
    assert.equal((await recordVisit(deps, { appointmentId: 11, body: form }, doctor)).appointment.status, 'completed');
  });

  it('refuses a record dated before its appointment', async () => {
    const { deps } = fakeRecordsDeps({ ...scheduled, date: '2026-06-09' });
    await assert.rejects(
      recordVisit(deps, { appointmentId: 11, body: { ...form, record_date: '2026-06-08' } }, doctor),
      { kind: 'invalid' },
    );
  });

  it('lets only doctors record visits', async () => {
    const { deps } = fakeRecordsDeps(scheduled);
    await assert.rejects(
      recordVisit(deps, { appointmentId: 11, body: form }, { userId: 2, role: 'patient', name: 'Pat', patientId: 5 }),
      {
        kind: 'forbidden',
      },
    );
  });
});

describe('amendRecord', () => {
  const amendment = {
    disease_id: 7,
    diagnosis: 'Bronchitis',
    prescriptions: 'Rest',
    reason: 'Lab results came back',
    version: 1,
  };
  const admin: Actor = { userId: 9, role: 'admin', name: 'Ada' };

  async function recorded() {
    const fake = fakeRecordsDeps(scheduled);
    const { medical_record } = await recordVisit(fake.deps, { appointmentId: 11, body: form }, doctor);
    fake.audit.length = 0;
    return { ...fake, recordId: medical_record.id };
  }

  it("makes the doctor's amendment current, keeps the first version with who, when and why, and audits it", async () => {
    const { deps, audit, recordId } = await recorded();
    const record = await amendRecord(deps, { recordId, body: amendment }, doctor);
    assert.equal(record.diagnosis, 'Bronchitis');
    assert.equal(record.amended, true);
    assert.deepEqual(
      record.history.map((h) => [h.version, h.diagnosis, h.written_by.id, h.reason]),
      [
        [1, 'Flu', 1, null],
        [2, 'Bronchitis', doctor.userId, 'Lab results came back'],
      ],
    );
    assert.equal(record.history[1]?.written_at, '2026-06-10T10:00:00.000Z');
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity, e.entityId, e.patientId, e.details]),
      [['amend', 'medical_record', recordId, 5, { version: 2 }]],
    );
  });

  it('refuses an amendment of a version amended meanwhile, naming the current one, and one naming no version', async () => {
    const { deps, recordId } = await recorded();
    await amendRecord(deps, { recordId, body: amendment }, doctor);
    await assert.rejects(amendRecord(deps, { recordId, body: { ...amendment, diagnosis: 'Asthma' } }, admin), {
      kind: 'conflict',
      code: 'record_changed',
      message: 'This record was amended meanwhile: it is now version 2. Read that version, then amend it.',
    });
    const { version: _, ...unversioned } = amendment;
    await assert.rejects(
      amendRecord(deps, { recordId, body: unversioned }, doctor),
      (error: { kind: string; fields: Record<string, string[]> }) => {
        assert.deepEqual([error.kind, Object.keys(error.fields)], ['invalid', ['version']]);
        return true;
      },
    );
    const byHeader = await amendRecord(deps, { recordId, body: unversioned, ifMatch: '"2"' }, doctor);
    assert.equal(byHeader.version, 3);
    await assert.rejects(amendRecord(deps, { recordId, body: { ...amendment, version: 3 }, ifMatch: '"2"' }, doctor), {
      kind: 'invalid',
    });
  });

  it('lets an admin amend any record', async () => {
    const { deps, recordId } = await recorded();
    assert.equal((await amendRecord(deps, { recordId, body: amendment }, admin)).history.length, 2);
  });

  it("answers another doctor's record as not found, and audits the attempt", async () => {
    const { deps, audit, recordId } = await recorded();
    const other: Actor = { ...doctor, userId: 4, doctorId: 8 };
    await assert.rejects(amendRecord(deps, { recordId, body: amendment }, other), { kind: 'not_found' });
    assert.deepEqual(
      audit.map((e) => [e.action, e.entityId, e.details]),
      [['refused', recordId, { attempt: 'amend' }]],
    );
  });

  it('lets no patient or receptionist amend', async () => {
    const { deps, recordId } = await recorded();
    for (const actor of [
      { userId: 2, role: 'patient', name: 'Pat', patientId: 5 },
      { userId: 3, role: 'reception', name: 'Rita' },
    ] as const) {
      await assert.rejects(amendRecord(deps, { recordId, body: amendment }, actor), { kind: 'forbidden' });
    }
  });

  it('needs a reason and refuses the billed service, cost and record date', async () => {
    const { deps, recordId } = await recorded();
    const body = {
      disease_id: 7,
      diagnosis: 'x',
      service_type: 'Surgery',
      cost: '900',
      record_date: TODAY,
      version: 1,
    };
    assert.deepEqual(await fieldsOf(amendRecord(deps, { recordId, body }, doctor)), [
      'cost',
      'reason',
      'record_date',
      'service_type',
    ]);
  });
});
