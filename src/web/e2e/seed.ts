/** Test data made the way the clinic makes it: through the HTTP API (and the admin use case the CLI calls). */
import { addDays } from '../../domain/shared/clock.ts';
import { oru } from '../../testing/hl7-fixtures.ts';
import { atClinicTime, CLINIC_TODAY, PASSWORD, uniqueEmail, type TestServer } from './harness.ts';

export interface Account {
  email: string;
  token: string;
  name: string;
}

export interface Clinic {
  admin: Account;
  doctor: Account & { id: number };
  diseaseId: number;
  departmentId: number;
}

/** An admin, a department, a specialization, a disease and a doctor. */
export async function seedClinic(server: TestServer): Promise<Clinic> {
  const admin = await createAdmin(server);
  const department = await call(server, 'POST', '/api/admin/departments', admin.token, {
    name: 'Cardiology',
    description: 'Heart care',
  });
  const specialization = await call(server, 'POST', '/api/admin/specializations', admin.token, {
    name: 'Cardiologist',
  });
  const disease = await call(server, 'POST', '/api/admin/diseases', admin.token, {
    name: 'Heart Disease',
    description: '',
  });

  const doctorEmail = uniqueEmail('doctor');
  const doctorName = 'Dr. Grace Hopper';
  // No bio, birthdate or address: the doctor profile shows its fallbacks.
  const doctor = await call(server, 'POST', '/api/admin/doctors', admin.token, {
    name: doctorName,
    email: doctorEmail,
    password: PASSWORD,
    phone: '+1 555 0142',
    gender: 'female',
    specialization_id: specialization.id,
    department_id: department.id,
  });
  return {
    admin,
    doctor: { id: doctor.id, name: doctorName, ...(await signIn(server, doctorEmail)) },
    diseaseId: disease.id,
    departmentId: department.id,
  };
}

/** The clinic's doctor works 09:00–17:00 in 30-minute slots every day of the week. */
export async function openDoctorEveryDay(server: TestServer, clinic: Clinic): Promise<void> {
  await call(server, 'PUT', `/api/admin/doctors/${clinic.doctor.id}/schedule`, clinic.admin.token, {
    days: [1, 2, 3, 4, 5, 6, 7],
    start_time: '09:00',
    end_time: '17:00',
    slot_minutes: 30,
  });
}

export async function createAdmin(server: TestServer): Promise<Account> {
  const email = uniqueEmail('admin');
  await server.app.auth.createAdmin({ name: 'Ada Admin', email, password: PASSWORD });
  return { name: 'Ada Admin', ...(await signIn(server, email)) };
}

export async function registerPatient(server: TestServer, name = 'Pat Tester'): Promise<Account> {
  const email = uniqueEmail('patient');
  await call(server, 'POST', '/api/patients/register', undefined, {
    name,
    email,
    password: PASSWORD,
    phone: '+1 555 0101',
    birthdate: '1990-05-17',
    gender: 'female',
  });
  return { name, ...(await signIn(server, email)) };
}

/** `days` after the clinic's today: a patient books one visit a day with a doctor (the booking limit). */
export const daysAhead = (days: number) => addDays(CLINIC_TODAY, days);

/** The patient books the doctor's slot starting at `startTime` (HH:mm) on `date`, by default today. */
export async function bookSlot(
  server: TestServer,
  clinic: Clinic,
  patient: Account,
  startTime: string,
  date = CLINIC_TODAY,
): Promise<{ id: number }> {
  const slots = await call(
    server,
    'GET',
    `/api/appointments/available/${clinic.doctor.id}?date=${date}`,
    patient.token,
  );
  const slot = slots.available_appointments.find((s: { start_time: string }) => s.start_time === startTime);
  if (!slot) throw new Error(`no slot at ${startTime}`);
  return call(server, 'POST', '/api/appointments/book', patient.token, {
    doctor_id: clinic.doctor.id,
    schedule_id: slot.schedule_id,
    date,
  });
}

/** A visit at `startTime` today that the doctor records when it begins with `cost`, which raises an unpaid bill. */
export async function seedUnpaidBill(
  server: TestServer,
  clinic: Clinic,
  patient: Account,
  startTime: string,
  cost: string,
) {
  const appointment = await bookSlot(server, clinic, patient, startTime);
  const record = () =>
    call(server, 'POST', `/api/doctor/appointments/${appointment.id}/medical-record`, clinic.doctor.token, {
      disease_id: clinic.diseaseId,
      diagnosis: 'Mild arrhythmia',
      lab_tests: 'ECG',
      prescriptions: 'Rest',
      service_type: 'Consultation',
      cost,
      record_date: CLINIC_TODAY,
    });
  const visit = await atClinicTime(startTime, record);
  return visit.billing as { id: number; amount: string };
}

async function signIn(server: TestServer, email: string): Promise<{ email: string; token: string }> {
  const answer = await call(server, 'POST', '/api/login', undefined, { email, password: PASSWORD });
  return { email, token: answer.token };
}

async function call(server: TestServer, method: string, path: string, token: string | undefined, body?: unknown) {
  const answer = await server.api(method, path, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The patient pays every unpaid bill of theirs by card at the desk, as `desk` records it. */
export async function payAtDesk(server: TestServer, desk: Account, patient: Account): Promise<void> {
  const { billings } = await call(server, 'GET', '/api/patient/billings', patient.token);
  for (const bill of billings as { id: number; payment_status: string }[])
    if (bill.payment_status !== 'paid')
      await call(server, 'POST', `/api/billings/${bill.id}/payments`, desk.token, { method: 'card' });
}

/** A receptionist, made by the admin through the API as the Reception page does. */
export async function createReceptionist(
  server: TestServer,
  admin: Account,
  name = 'Rita Reception',
): Promise<Account> {
  return createStaff(server, admin, 'receptionists', name);
}

/** A lab technician, made by the admin as the admin screen makes one. */
export async function createLabTechnician(server: TestServer, admin: Account, name = 'Lena Lab'): Promise<Account> {
  return createStaff(server, admin, 'lab-technicians', name);
}

/** Another doctor of the clinic's department, made by the admin. */
export async function createColleague(server: TestServer, clinic: Clinic, name: string): Promise<Account> {
  const email = uniqueEmail('colleague');
  await call(server, 'POST', '/api/admin/doctors', clinic.admin.token, {
    name,
    email,
    password: PASSWORD,
    department_id: clinic.departmentId,
  });
  return { name, ...(await signIn(server, email)) };
}

/** A nurse of the clinic's department (whose wards `seedWard` makes), made by the admin as the admin screen makes one. */
export async function createNurse(server: TestServer, clinic: Clinic, name = 'Nina Nurse'): Promise<Account> {
  return createStaff(server, clinic.admin, 'nurses', name, { department_id: clinic.departmentId });
}

async function createStaff(
  server: TestServer,
  admin: Account,
  kind: 'receptionists' | 'lab-technicians' | 'nurses',
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Account> {
  const email = uniqueEmail(kind);
  await call(server, 'POST', `/api/admin/${kind}`, admin.token, { name, email, password: PASSWORD, ...extra });
  return { name, ...(await signIn(server, email)) };
}

/** A ward: a room of the clinic's department with `beds` beds of one class at $150.00 a night. */
export async function seedWard(
  server: TestServer,
  clinic: Clinic,
  room = 'Ward A',
  beds = ['A1', 'A2'],
): Promise<{ roomId: number; bedIds: number[] }> {
  const created = await call(server, 'POST', '/api/admin/rooms', clinic.admin.token, {
    name: room,
    department_id: clinic.departmentId,
  });
  await call(server, 'PUT', `/api/admin/rooms/${created.id}/bed-class`, clinic.admin.token, {
    bed_class: 'Standard',
    nightly_rate: '150.00',
  });
  const bedIds: number[] = [];
  for (const label of beds)
    bedIds.push((await call(server, 'POST', `/api/admin/rooms/${created.id}/beds`, clinic.admin.token, { label })).id);
  return { roomId: created.id, bedIds };
}

/** The patient's id, as the admin finds them by e-mail. */
export async function patientIdOf(server: TestServer, clinic: Clinic, patient: Account): Promise<number> {
  const found = await call(
    server,
    'GET',
    `/api/admin/patients?q=${encodeURIComponent(patient.email)}`,
    clinic.admin.token,
  );
  const id = (found as { patients: { id: number }[] }).patients[0]?.id;
  if (id === undefined) throw new Error(`no patient ${patient.email}`);
  return id;
}

/**
 * A patient in bed `bedId` whose discharge the doctor has ordered (summary written), through the API as the ward
 * does it: the doctor requests, the desk (the admin) admits, the doctor orders the discharge.
 */
export async function seedStay(
  server: TestServer,
  clinic: Clinic,
  patientId: number,
  bedId: number,
): Promise<{ admissionId: number }> {
  const admission = await call(server, 'POST', '/api/admissions', clinic.doctor.token, {
    patient_id: patientId,
    department_id: clinic.departmentId,
    expected_nights: 2,
    reason: 'Observation',
  });
  await call(server, 'POST', `/api/admissions/${admission.id}/admit`, clinic.admin.token, { bed_id: bedId });
  await call(server, 'POST', `/api/admissions/${admission.id}/discharge-order`, clinic.doctor.token, {
    diagnosis: 'Stable angina',
    treatment: 'Rest and monitoring',
  });
  return { admissionId: admission.id };
}

/**
 * Lab work of a stay, as the doctor and the lab do it through the API: a potassium (critical, 7 mmol/L) and a
 * glucose, collected, resulted, signed off and released; and a sodium still waiting for collection. Answers the
 * first order's id.
 */
export async function seedLabOrder(
  server: TestServer,
  clinic: Clinic,
  lab: Account,
  admissionId: number,
): Promise<number> {
  const catalogue = await call(server, 'GET', '/api/lab/tests?per_page=200', clinic.doctor.token);
  const idOf = (code: string) => {
    const test = (catalogue.tests as { id: number; code: string }[]).find((t) => t.code === code);
    if (!test) throw new Error(`no test ${code} in the catalogue`);
    return test.id;
  };
  const order = (codes: string[]) =>
    call(server, 'POST', '/api/lab/orders', clinic.doctor.token, {
      admission_id: admissionId,
      test_ids: codes.map(idOf),
    });
  const placed = await order(['2823-3', '2345-7']);
  await order(['2951-2']);
  const work = await call(server, 'GET', `/api/lab/worklist?order_number=${placed.order_number}`, lab.token);
  const values: Record<string, [number, string]> = { '2823-3': [7, 'mmol/L'], '2345-7': [90, 'mg/dL'] };
  for (const item of work.orders[0].items as { id: number; code: string }[]) {
    const [value, unit] = values[item.code] ?? [0, ''];
    await call(server, 'POST', `/api/lab/items/${item.id}/collect`, lab.token, { specimen_code: `SEED-${item.id}` });
    await call(server, 'POST', `/api/lab/items/${item.id}/result`, lab.token, { type: 'quantity', value, unit });
  }
  await call(server, 'POST', `/api/lab/orders/${placed.id}/finalize`, lab.token);
  await call(server, 'POST', `/api/lab/orders/${placed.id}/release`, clinic.doctor.token);
  return placed.id;
}

/**
 * Two results from an analyser whose order numbers matched no order, as the HL7 interface holds them (written
 * straight to its table: the interface that feeds it is another screen's): a glucose and a potassium.
 */
export async function seedUnmatchedResults(server: TestServer): Promise<void> {
  await server.db.query(
    `insert into lab_unmatched_results (source, message_id, order_number, code_system, code, value_type,
       value_quantity, value_unit, effective_at, received_at)
     values ('analyser', 'seed-1', 'L0000-TYPO', 'loinc', '2345-7', 'quantity', 100, 'mg/dL', $1, $1),
            ('analyser', 'seed-2', 'X-UNKNOWN', 'loinc', '2823-3', 'quantity', 4.1, 'mmol/L', $1, $1)`,
    ['2030-06-03T05:00:00Z'],
  );
}

/** The formulary's id of `label` ("Paracetamol 500 mg tablet"), as a doctor finds it. */
async function medicineId(server: TestServer, clinic: Clinic, label: string): Promise<number> {
  const list = await call(server, 'GET', `/api/formulary?per_page=200`, clinic.doctor.token);
  const found = (list.medicines as { id: number; label: string }[]).find((m) => m.label === label);
  if (!found) throw new Error(`no ${label} in the formulary`);
  return found.id;
}

/** A prescription written by the clinic's doctor at the patient's first visit (booked before). */
export async function seedPrescription(
  server: TestServer,
  clinic: Clinic,
  patient: Account,
): Promise<{ orderId: number }> {
  const visits = await call(server, 'GET', '/api/patient/appointments', patient.token);
  const appointment = (visits.appointments as { id: number }[])[0];
  if (!appointment) throw new Error('the patient has no visit to prescribe at');
  const order = await call(server, 'POST', '/api/medication-orders', clinic.doctor.token, {
    appointment_id: appointment.id,
    medicine_id: await medicineId(server, clinic, 'Amoxicillin 500 mg capsule'),
    dose: 500,
    dose_unit: 'mg',
    route: 'oral',
    frequency: 'times_a_day',
    times_a_day: 3,
    duration_days: 7,
  });
  return { orderId: order.id };
}

/** An inpatient order of the stay: a scheduled medicine every 8 hours and one as needed. */
export async function seedWardOrders(server: TestServer, clinic: Clinic, admissionId: number): Promise<void> {
  const order = { admission_id: admissionId, route: 'oral', duration_days: 2 };
  await call(server, 'POST', '/api/medication-orders', clinic.doctor.token, {
    ...order,
    medicine_id: await medicineId(server, clinic, 'Omeprazole 20 mg capsule'),
    dose: 20,
    dose_unit: 'mg',
    frequency: 'every_hours',
    every_hours: 8,
  });
  await call(server, 'POST', '/api/medication-orders', clinic.doctor.token, {
    ...order,
    medicine_id: await medicineId(server, clinic, 'Paracetamol 500 mg tablet'),
    dose: 1,
    dose_unit: 'g',
    frequency: 'as_needed',
    min_interval_hours: 4,
    max_per_day: 4,
  });
}

/**
 * HL7 traffic each way: a receiver (nothing listens at its port) with a lab order message it refused (a dead
 * letter, written to its queue as the sender leaves one), a result for no order (unmatched) and a message that is
 * no HL7 (refused, kept).
 */
export async function seedHl7Traffic(server: TestServer, clinic: Clinic): Promise<{ deadLetter: string }> {
  const receiver = await call(server, 'POST', '/api/admin/hl7/receivers', clinic.admin.token, {
    name: 'Lab system',
    host: '127.0.0.1',
    port: 9,
    events: ['O21'],
  });
  const deadLetter = 'TDEAD1';
  await server.db.query(
    `insert into hl7_outbox (receiver_id, event, control_id, message, status, attempts, last_error, ack_code, ack)
     values ($1, 'O21', $2, $3, 'dead', 3, 'AR: unknown test', 'AR', $4)`,
    [
      receiver.id,
      deadLetter,
      `MSH|^~\\&|MEDORA|CLINIC|LAB|LAB|20300603080000||OML^O21^OML_O21|${deadLetter}|P|2.5.1\rPID|1||1^^^MEDORA^MR||Tester^Pat <b>`,
      `MSH|^~\\&|LAB|LAB|MEDORA|CLINIC|20300603080001||ACK^O21^ACK|A1|P|2.5.1\rMSA|AR|${deadLetter}`,
    ],
  );
  await server.app.hl7Inbound.receiveMessage(
    oru('TIN1', 'NO-SUCH-ORDER', [{ code: '2823-3', value: '4.1', unit: 'mmol/L' }]),
  );
  await server.app.hl7Inbound.receiveMessage('not an HL7 message');
  return { deadLetter };
}
