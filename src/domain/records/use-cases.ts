import { listEntry, recorded, recordingRefusals, refusal } from '../audit/audit.ts';
import { clinicalReadEntries } from '../care/care.ts';
import { requireCare } from '../care/guard.ts';
import { billForVisit, billedVisit } from '../billing/billing.ts';
import { billingJson } from '../billing/billing-answers.ts';
import { ownDoctorId, type Actor } from '../shared/actor.ts';
import { clinicDateTime, clinicToday } from '../shared/clock.ts';
import { conflict, invalid } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import { hasStarted } from '../scheduling/scheduling.ts';
import { transition } from '../scheduling/lifecycle.ts';
import { billIssued } from '../notifications/templates.ts';
import type { RecordsDeps } from './ports.ts';
import {
  currentVersion,
  medicalRecordJson,
  patientCardJson,
  patientDetailJson,
  readAmendment,
  readVisit,
} from './records.ts';
import type { MedicalRecordJson, PatientCardJson, PatientDetailJson, RecordedVisitJson } from './records-shapes.ts';
import { appointmentJson } from '../scheduling/appointment-answers.ts';

/**
 * The appointment's own doctor records the visit. In one transaction the record is written, the appointment
 * completed and its bill raised (none for a free visit); if any step fails nothing is written.
 */
export async function recordVisit(
  deps: RecordsDeps,
  input: { appointmentId: string | number; body: unknown },
  actor: Actor,
): Promise<RecordedVisitJson> {
  const doctorId = doctorOf(actor);
  const appointmentId = pathId(input.appointmentId, 'Appointment');
  const visit = await readVisit(input.body, clinicToday(deps.clock, deps.timeZone), deps.diseases.exists);

  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const appointment = await tx.appointments.lock(appointmentId);
      // Another doctor's appointment is answered as missing, so its existence is not revealed.
      if (!appointment || appointment.doctor.id !== doctorId) {
        throw refusal('Appointment', actor, {
          entity: 'appointment',
          entityId: appointmentId,
          patientId: appointment?.patient.id,
          attempt: 'record_visit',
        });
      }
      const completed = transition(appointment.status, 'complete');
      // A visit is recorded once it has begun: before that there is nothing to write down, and its bill would
      // be dated before the visit took place.
      if (!hasStarted(appointment.date, appointment.startTime, clinicDateTime(tx.clock.now(), deps.timeZone))) {
        throw conflict(
          'visit_not_started',
          `This visit can be recorded from ${appointment.startTime} on ${appointment.date}`,
        );
      }
      if (visit.recordDate < appointment.date)
        throw invalid({ record_date: [`cannot be before the appointment date ${appointment.date}`] });

      const patientId = appointment.patient.id;
      const record = await tx.records.create({ ...visit, appointmentId, patientId, doctorId });
      await tx.appointments.markCompleted(appointmentId, tx.clock.now());
      const newBill = billForVisit({ ...visit, patientId, medicalRecordId: record.id });
      const bill = newBill ? await tx.bills.create(newBill) : undefined;

      const audited = { actor, patientId };
      await tx.audit.record(
        { ...audited, action: 'create', entity: 'medical_record', entityId: record.id },
        {
          ...audited,
          action: 'update',
          entity: 'appointment',
          entityId: appointmentId,
          details: { from: appointment.status, status: completed },
        },
        ...(bill
          ? [
              {
                ...audited,
                action: 'create',
                entity: 'billing',
                entityId: bill.id,
                details: { amount_cents: bill.amountCents },
              },
            ]
          : []),
      );
      if (bill && bill.patient.email !== null) {
        await tx.outbox.enqueue(
          billIssued(deps.clinic, billedVisit(bill), { email: bill.patient.email, userId: null }, tx.clock.now()),
        );
      }

      return {
        medical_record: medicalRecordJson(record),
        appointment: appointmentJson({ ...appointment, status: completed }),
        billing: bill ? billingJson(bill) : null,
      };
    }),
  );
}

/**
 * The doctor who wrote a record, or an admin, amends its clinical content, saying why. The record then reads as
 * amended; every version stays in its history with who wrote it and when. Another doctor's record is answered as
 * missing. Its bill is not touched. It names the version it amends; one amended meanwhile is refused (409), so two
 * doctors amending at once never overwrite each other unseen.
 */
export async function amendRecord(
  deps: RecordsDeps,
  input: { recordId: RawId; body: unknown; ifMatch?: string },
  actor: Actor,
): Promise<MedicalRecordJson> {
  if (actor.role !== 'admin') doctorOf(actor);
  const recordId = pathId(input.recordId, 'Medical record');
  const { content, reason, version: amends } = await readAmendment(input.body, deps.diseases.exists, input.ifMatch);

  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const record = await tx.records.lock(recordId);
      if (!record || (actor.role !== 'admin' && record.doctor.id !== actor.doctorId)) {
        throw refusal('Medical record', actor, {
          entity: 'medical_record',
          entityId: recordId,
          patientId: record?.patientId,
          attempt: 'amend',
        });
      }
      // Under the record's lock: of two amendments of one version, the second sees the first's and is refused.
      const current = currentVersion(record);
      if (amends !== current) {
        throw conflict(
          'record_changed',
          `This record was amended meanwhile: it is now version ${current}. Read that version, then amend it.`,
          {
            version: [`is ${amends}, but the record is now version ${current}`],
          },
        );
      }
      const amended = await tx.records.amend(recordId, content, { userId: actor.userId, at: tx.clock.now(), reason });
      const version = amended.history.length;
      await tx.audit.record({
        actor,
        action: 'amend',
        entity: 'medical_record',
        entityId: recordId,
        patientId: record.patientId,
        details: { version },
      });
      return medicalRecordJson(amended);
    }),
  );
}

/** The doctor's patients: those whose care team they are in or whose record they hold open, searched by name, email or phone; audited. */
export async function listMyPatients(deps: RecordsDeps, query: unknown, actor: Actor): Promise<Page<PatientCardJson>> {
  const request = pageRequest(asRecord(query));
  const page = await deps.patients.list(doctorOf(actor), request, deps.clock.now());
  await deps.audit.record(listEntry(actor, 'patient', request));
  return { ...page, items: page.items.map(patientCardJson) };
}

/** One of the doctor's patients with every medical record; the read is audited. */
export async function showMyPatient(
  deps: RecordsDeps,
  patientId: string | number,
  actor: Actor,
): Promise<PatientDetailJson> {
  doctorOf(actor);
  const id = pathId(patientId, 'Patient');
  // A patient outside the doctor's care team is answered as missing, so the doctor cannot probe who is registered.
  const target = { what: 'Patient', entity: 'patient', entityId: id, attempt: 'read_records' };
  const patient = await deps.patients.find(id);
  const reach = await recordingRefusals(deps.audit, () =>
    requireCare(deps, actor, { ...target, patientId: patient?.id }),
  );
  if (!patient) throw await recorded(deps.audit, refusal('Patient', actor, target));
  const records = await deps.records.listForPatient(id);
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      [{ patientId: id, action: 'read_records', entity: 'patient', entityId: id }],
      new Map(reach ? [[id, reach]] : []),
    ),
  );
  return patientDetailJson(patient, records);
}

const doctorOf = (actor: Actor) => ownDoctorId(actor, 'Only doctors keep medical records');
