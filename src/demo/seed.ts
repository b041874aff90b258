import type { App } from '../app.ts';
import type { Queryable } from '../db/db.ts';
import { demoStore, type DemoStore } from '../db/demo.pg.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { addDays, clinicToday, isoWeekday } from '../domain/shared/clock.ts';
import { DEMO_LAB_EMAIL, seedLab } from './lab-seed.ts';
import { seedMedicines } from './medicines-seed.ts';
import { seedTimeOff } from './time-off-seed.ts';
import { DEMO_NURSE_EMAIL, seedVitals } from './vitals-seed.ts';

export const DEMO_PASSWORD = 'medora-demo';
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@medora.test' },
  { role: 'doctor', email: 'doctor@medora.test' },
  { role: 'patient', email: 'patient@medora.test' },
  { role: 'reception', email: 'reception@medora.test' },
  { role: 'lab', email: DEMO_LAB_EMAIL },
  { role: 'nurse', email: DEMO_NURSE_EMAIL },
] as const;

export const isEmpty = async (db: Queryable): Promise<boolean> => !(await demoStore(db).hasUsers());

/**
 * Fills an empty database with a small, believable clinic through the same use cases users reach,
 * so the demo obeys every rule the product does.
 */
export async function seedDemo(app: App, db: Queryable): Promise<void> {
  const demo = demoStore(db);
  const admin = await app.auth.createAdmin({ name: 'Ada Admin', email: 'admin@medora.test', password: DEMO_PASSWORD });
  await seedCatalogue(app, { userId: admin.id, role: 'admin', name: admin.name, requestId: 'demo-seed' });
  await app.auth.register({
    name: 'Paula Patient',
    email: 'patient@medora.test',
    password: DEMO_PASSWORD,
    phone: '+1 555 0100',
    birthdate: '1988-04-12',
    gender: 'female',
  });
  await seedAppointments(app, demo);
  const adminActor: Actor = { userId: admin.id, role: 'admin', name: admin.name, requestId: 'demo-seed' };
  const recorded = await seedRecordedVisitsWith(app, demo, adminActor);
  await seedCorrections(app, recorded, adminActor);
  const desk = await seedFrontDesk(app, demo, adminActor);
  const ward = await seedWard(app, demo, adminActor, desk);
  await seedTimeOff(app, adminActor);
  const [paula] = await demo.patients(['patient@medora.test']);
  if (!paula) throw new Error('seed: the lab needs the demo patient');
  await seedLab(app, demo, { admin: adminActor, password: DEMO_PASSWORD, patient: paula, visits: recorded, ward });
  await seedVitals(app, {
    admin: adminActor,
    password: DEMO_PASSWORD,
    departmentId: ward.departmentId,
    deteriorating: ward.stayId,
    calm: ward.calmStayId,
  });
  const [omar] = await demo.patients([nth(OTHER_DEMO_PATIENTS, 0, 'patient').email]);
  if (!omar) throw new Error('seed: the medicines need the ward patient');
  await seedMedicines(app, { patient: paula, visits: recorded, inpatient: omar, ward });
}

// --- catalogue

const DEMO_DEPARTMENTS = [
  {
    name: 'Cardiology',
    description: 'Diagnosis and treatment of the heart and blood vessels.',
    specialization: 'Cardiologist',
  },
  {
    name: 'Pharmacy',
    description: 'Dispensing, medication reviews and advice on interactions.',
    specialization: 'Clinical Pharmacist',
  },
  {
    name: 'Emergency Care',
    description: 'Round-the-clock care for injuries and sudden illness.',
    specialization: 'Emergency Physician',
  },
  {
    name: 'Genetics and Diagnostics',
    description: 'Laboratory testing, imaging and genetic counselling.',
    specialization: 'Geneticist',
  },
  {
    name: 'Rehabilitation',
    description: 'Physiotherapy and recovery after surgery or injury.',
    specialization: 'Physiotherapist',
  },
  {
    name: 'Preventive Health',
    description: 'Check-ups, screenings and vaccinations.',
    specialization: 'General Practitioner',
  },
  { name: 'Neurology', description: 'Disorders of the brain, spine and nerves.', specialization: 'Neurologist' },
  { name: 'Pediatrics', description: 'Care for infants, children and adolescents.', specialization: 'Pediatrician' },
];

const DEMO_DISEASES = [
  { name: 'corona', description: 'COVID-19, infection with the SARS-CoV-2 coronavirus.' },
  { name: 'Heart Disease', description: 'Coronary artery disease, heart failure and arrhythmias.' },
  { name: 'Cancer', description: 'Malignant tumours of any organ.' },
  { name: 'Influenza', description: 'Seasonal flu.' },
  { name: 'Hypertension', description: 'Persistently raised blood pressure.' },
  { name: 'Type 2 Diabetes', description: 'Insulin resistance with raised blood sugar.' },
  { name: 'Asthma', description: 'Chronic inflammation of the airways.' },
  { name: 'Migraine', description: 'Recurrent severe headaches.' },
];

// One doctor per department, in DEMO_DEPARTMENTS order; the first is the demo doctor account.
const DEMO_DOCTORS = [
  {
    name: 'Dr. Gregory House',
    email: 'doctor@medora.test',
    gender: 'male',
    birthdate: '1969-06-11',
    bio: 'Cardiologist with twenty years in interventional care.',
  },
  {
    name: 'Dr. Lisa Cuddy',
    email: 'lisa.cuddy@medora.test',
    gender: 'female',
    birthdate: '1972-03-02',
    bio: 'Clinical pharmacist; runs the medication safety programme.',
  },
  {
    name: 'Dr. John Carter',
    email: 'john.carter@medora.test',
    gender: 'male',
    birthdate: '1974-09-29',
    bio: 'Emergency physician and trauma team lead.',
  },
  {
    name: 'Dr. Meredith Grey',
    email: 'meredith.grey@medora.test',
    gender: 'female',
    birthdate: '1979-09-27',
    bio: 'Clinical geneticist focused on hereditary cancers.',
  },
  {
    name: 'Dr. Sam Okafor',
    email: 'sam.okafor@medora.test',
    gender: 'male',
    birthdate: '1983-01-15',
    bio: 'Physiotherapist for sports injuries and post-operative recovery.',
  },
  {
    name: 'Dr. Priya Raman',
    email: 'priya.raman@medora.test',
    gender: 'female',
    birthdate: '1986-07-08',
    bio: 'General practitioner; screenings and travel vaccinations.',
  },
  {
    name: 'Dr. Stephen Park',
    email: 'stephen.park@medora.test',
    gender: 'male',
    birthdate: '1977-11-18',
    bio: 'Neurologist treating migraine and epilepsy.',
  },
  {
    name: 'Dr. Ana Souza',
    email: 'ana.souza@medora.test',
    gender: 'female',
    birthdate: '1981-04-23',
    bio: 'Pediatrician; newborn care and childhood asthma.',
  },
];

/** Departments with their rooms, specializations and one doctor each, diseases, all through the admin's use cases. */
async function seedCatalogue(app: App, admin: Actor): Promise<void> {
  for (const disease of DEMO_DISEASES) await app.catalogue.createDisease(disease, admin);
  for (const [i, d] of DEMO_DEPARTMENTS.entries()) {
    const department = await app.catalogue.createDepartment({ name: d.name, description: d.description }, admin);
    for (const room of [1, 2])
      await app.catalogue.createRoom({ name: `Room ${i + 1}0${room}`, department_id: department.id }, admin);
    const specialization = await app.catalogue.createSpecialization({ name: d.specialization }, admin);
    await app.doctors.createDoctor(
      {
        ...DEMO_DOCTORS[i],
        password: DEMO_PASSWORD,
        phone: `+1 555 02${String(i).padStart(2, '0')}`,
        address: `${12 + i} Harbour Street, Springfield`,
        specialization_id: specialization.id,
        department_id: department.id,
      },
      admin,
    );
  }
}

// --- appointments

const OTHER_DEMO_PATIENTS = [
  {
    name: 'Omar Haddad',
    email: 'omar.haddad@medora.test',
    phone: '+1 555 0111',
    birthdate: '1975-02-03',
    gender: 'male',
  },
  { name: 'Mei Lin', email: 'mei.lin@medora.test', phone: '+1 555 0112', birthdate: '1992-08-21', gender: 'female' },
  {
    name: 'Lucas Brown',
    email: 'lucas.brown@medora.test',
    phone: '+1 555 0113',
    birthdate: '2001-12-09',
    gender: 'other',
  },
];

// Who sees whom in the coming days: [patient (0 is the demo patient), doctor (index in DEMO_DOCTORS), clinic
// weekday from tomorrow (0 = the first), which of that day's free slots]. The demo doctor gets several.
const UPCOMING_VISITS = [
  [0, 0, 0, 2],
  [0, 5, 2, 4],
  [1, 0, 0, 0],
  [1, 1, 1, 3],
  [2, 0, 1, 1],
  [2, 6, 0, 5],
  [3, 0, 2, 0],
  [3, 7, 1, 2],
] as const;

/** More patients, upcoming visits booked through the patients' own use case, and the demo patient's history. */
async function seedAppointments(app: App, demo: DemoStore): Promise<void> {
  for (const patient of OTHER_DEMO_PATIENTS) await app.auth.register({ ...patient, password: DEMO_PASSWORD });
  const emails = ['patient@medora.test', ...OTHER_DEMO_PATIENTS.map((p) => p.email)];
  await demo.markVerified(emails);
  const patients = await demo.patients(emails);
  const doctorIds = await demo.doctorIds(DEMO_DOCTORS.map((d) => d.email));
  const days = clinicWeekdays(addDays(clinicToday(app.clock, app.config.clinicTz), 1), 1, 3);
  for (const [patientIndex, doctorIndex, day, slotIndex] of UPCOMING_VISITS) {
    const p = nth(patients, patientIndex, 'patient');
    const [doctorId, date] = [nth(doctorIds, doctorIndex, 'doctor'), nth(days, day, 'day')];
    const actor: Actor = { userId: p.userId, role: 'patient', name: p.name, patientId: p.id, requestId: 'demo-seed' };
    const { available_appointments: slots } = await app.scheduling.availableSlots(doctorId, { date }, actor);
    const free = slots.filter((slot) => slot.status === 'available');
    await app.scheduling.book(
      { doctor_id: doctorId, schedule_id: nth(free, slotIndex % free.length, 'free slot').schedule_id, date },
      actor,
    );
  }
  // The demo patient waits for an earlier time with the pharmacist on the next three working days.
  const first = nth(patients, 0, 'patient');
  await app.waitlist.joinWaitlist(
    { doctor_id: nth(doctorIds, 1, 'doctor'), from_date: nth(days, 0, 'day'), to_date: nth(days, 2, 'day') },
    { userId: first.userId, role: 'patient', name: first.name, patientId: first.id, requestId: 'demo-seed' },
  );
  await seedPastAppointments(app, demo, nth(patients, 0, 'patient').id, doctorIds);
}

/** The `index`th of `items`: the demo's tables name things by position, so a missing one is a bug in them. */
function nth<T>(items: readonly T[], index: number, what: string): T {
  const item = items[index];
  if (item === undefined) throw new Error(`seed: there is no ${what} number ${index}`);
  return item;
}

/** `count` Monday-to-Friday dates going from `from` by `step` days (1 forward, -1 back), `from` included if it is one. */
function clinicWeekdays(from: string, step: 1 | -1, count: number): string[] {
  const dates: string[] = [];
  for (let date = from; dates.length < count; date = addDays(date, step)) if (isoWeekday(date) <= 5) dates.push(date);
  return dates;
}

// The demo patient's past visits, oldest first, by doctor index: flu with the GP, then blood pressure with the
// cardiologist twice, then a check-up with the GP — the order of seedRecordedVisits' DEMO_VISITS.
const PAST_VISIT_DOCTORS = [5, 0, 0, 5];

/**
 * The demo patient's past appointments, two weeks apart, inserted as history: the booking use case refuses past
 * dates. They stay `scheduled` here; seedRecordedVisits records each visit, which completes it.
 */
async function seedPastAppointments(app: App, demo: DemoStore, patientId: number, doctorIds: number[]): Promise<void> {
  const today = clinicToday(app.clock, app.config.clinicTz);
  await demo.insertPastAppointments(
    patientId,
    PAST_VISIT_DOCTORS.map((doctorIndex, i) => ({
      doctorId: nth(doctorIds, doctorIndex, 'doctor'),
      date: nth(clinicWeekdays(addDays(today, -14 * (PAST_VISIT_DOCTORS.length - i)), -1, 1), 0, 'weekday'),
    })),
  );
}

// --- records and billing

// In the order of the demo patient's past appointments (see PAST_VISIT_DOCTORS); diseases by catalogue name.
const DEMO_VISITS = [
  {
    disease: 'Influenza',
    diagnosis: 'Seasonal influenza, no complications',
    prescriptions: 'Rest, fluids, paracetamol 500 mg as needed',
    lab_tests: 'Rapid antigen test',
    service_type: 'General consultation',
    cost: '85.00',
  },
  {
    disease: 'Hypertension',
    diagnosis: 'Elevated blood pressure on two readings',
    prescriptions: 'Low-salt diet; recheck in four weeks',
    lab_tests: 'Lipid panel, creatinine',
    service_type: 'Cardiology check-up',
    cost: '140.00',
  },
  {
    disease: 'Hypertension',
    diagnosis: 'Blood pressure back within range',
    prescriptions: 'Continue the diet',
    lab_tests: '',
    service_type: 'Follow-up visit',
    cost: '45.50',
  },
  {
    disease: 'Type 2 Diabetes',
    diagnosis: 'Fasting glucose slightly raised at the annual check-up; early type 2 diabetes',
    prescriptions: 'Diet and exercise plan; HbA1c in three months',
    lab_tests: 'Full blood count, HbA1c',
    service_type: 'Preventive health check',
    cost: '120.00',
  },
];

/**
 * Records a visit for each of the demo patient's past scheduled appointments through the doctors' own use
 * case (which completes the appointment and raises the bill), then `desk` takes the card for every other bill
 * on the desk's terminal, leaving a history of paid and unpaid bills.
 */
export async function seedRecordedVisits(app: App, db: Queryable, desk: Actor): Promise<void> {
  await seedRecordedVisitsWith(app, demoStore(db), desk);
}

interface RecordedVisit {
  appointmentId: number;
  date: string;
  recordId: number;
  billId: number | undefined;
  doctor: Actor;
  diseaseId: number | undefined;
  visit: Omit<(typeof DEMO_VISITS)[number], 'disease'>;
}

async function seedRecordedVisitsWith(app: App, demo: DemoStore, desk: Actor): Promise<RecordedVisit[]> {
  const today = clinicToday(app.clock, app.config.clinicTz);
  const [patient] = await demo.patients(['patient@medora.test']);
  const diseaseIds = await demo.diseaseIds(DEMO_VISITS.map((v) => v.disease));
  if (!patient || DEMO_VISITS.some((v) => !diseaseIds.has(v.disease))) {
    throw new Error('seed: recorded visits need the demo patient and the demo diseases first');
  }
  const diseaseId = (name: string) => diseaseIds.get(name);

  const appointments = await demo.unrecordedVisits(patient.id, today);
  const recorded: RecordedVisit[] = [];
  for (const [i, a] of appointments.entries()) {
    const doctor: Actor = {
      userId: a.doctor.userId,
      role: 'doctor',
      name: a.doctor.name,
      doctorId: a.doctor.id,
      requestId: 'demo-seed',
    };
    const { disease, ...visit } = nth(DEMO_VISITS, i % DEMO_VISITS.length, 'demo visit');
    const body = { ...visit, disease_id: diseaseId(disease), record_date: a.date };
    const { medical_record: record, billing } = await app.records.recordVisit({ appointmentId: a.id, body }, doctor);
    if (billing && i % 2 === 0)
      await app.billing.takePayment({ billingId: billing.id, body: { method: 'card' } }, desk);
    recorded.push({
      appointmentId: a.id,
      date: a.date,
      recordId: record.id,
      billId: billing?.id,
      doctor,
      diseaseId: body.disease_id,
      visit,
    });
  }
  return recorded;
}

/**
 * The second recorded visit corrected afterwards, as doctors and the desk do: its record amended by the doctor who
 * wrote it, saying why, and its bill lowered by an admin's credit note.
 */
async function seedCorrections(app: App, recorded: RecordedVisit[], admin: Actor): Promise<void> {
  const { recordId, billId, doctor, diseaseId, visit } = nth(recorded, 1, 'recorded visit');
  const amendment = {
    disease_id: diseaseId,
    diagnosis: `${visit.diagnosis}; home readings over two weeks confirm it`,
    lab_tests: visit.lab_tests,
    prescriptions: `${visit.prescriptions}; amlodipine 5 mg daily`,
    reason: 'Added the home readings and the prescription agreed by phone',
    version: 1,
  };
  await app.records.amendRecord({ recordId, body: amendment }, doctor);
  if (billId !== undefined) {
    await app.billing.adjustBill(
      {
        billingId: billId,
        body: { kind: 'credit', amount: '40.00', reason: 'Lipid panel not done: the sample was lost' },
      },
      admin,
    );
  }
}

// --- the front desk

/**
 * The receptionist, and a day at the desk through reception's own use cases: a patient checked in today with
 * the demo doctor, and one who did not come to a visit last week.
 */
async function seedFrontDesk(app: App, demo: DemoStore, admin: Actor): Promise<Actor> {
  const reception = await app.staff.createReceptionist(
    { name: 'Rita Reyes', email: 'reception@medora.test', password: DEMO_PASSWORD },
    admin,
  );
  const desk: Actor = { userId: reception.id, role: 'reception', name: reception.name, requestId: 'demo-seed' };
  const today = clinicToday(app.clock, app.config.clinicTz);
  const [doctorId] = await demo.doctorIds([nth(DEMO_DOCTORS, 0, 'doctor').email]);
  const [omar, mei] = await demo.patients(OTHER_DEMO_PATIENTS.slice(0, 2).map((p) => p.email));
  if (doctorId === undefined || !omar || !mei)
    throw new Error('seed: the front desk needs the demo doctor and patients first');
  const lastWeek = nth(clinicWeekdays(addDays(today, -7), -1, 1), 0, 'weekday');
  const [missed] = await demo.insertPastAppointments(omar.id, [{ doctorId, date: lastWeek }]);
  const [waiting] = await demo.insertPastAppointments(mei.id, [
    { doctorId, date: today, slotWeekday: isoWeekday(today) <= 5 ? undefined : 1 },
  ]);
  if (missed === undefined || waiting === undefined) throw new Error('seed: the front desk visits were not written');
  await app.scheduling.markNoShow(missed, desk);
  await app.scheduling.checkIn(waiting, desk);
  return desk;
}

// --- the ward

/**
 * Cardiology's two rooms as a ward, through the admin's, the doctor's and the desk's own use cases: a four-bed
 * room and a private one, two patients in bed for three days (one whose discharge is ordered) and the demo patient
 * discharged.
 */
async function seedWard(
  app: App,
  demo: DemoStore,
  admin: Actor,
  desk: Actor,
): Promise<{ stayId: number; calmStayId: number; departmentId: number; doctor: Actor }> {
  const rooms = (await app.catalogue.listRooms({ q: 'Room 10' })).items;
  const [ward, single] = rooms;
  const doctor = await app.doctors.getDoctorByEmail(nth(DEMO_DOCTORS, 0, 'doctor').email);
  const [paula, omar, lucas] = await demo.patients([
    'patient@medora.test',
    nth(OTHER_DEMO_PATIENTS, 0, 'patient').email,
    nth(OTHER_DEMO_PATIENTS, 2, 'patient').email,
  ]);
  if (!ward || !single || !paula || !omar || !lucas)
    throw new Error('seed: the ward needs the Cardiology rooms and the demo patients first');
  await app.inpatient.setRoomClass(ward.id, { bed_class: 'Standard ward', nightly_rate: '180.00' }, admin);
  await app.inpatient.setRoomClass(single.id, { bed_class: 'Private', nightly_rate: '320.00' }, admin);
  const beds = [];
  for (const label of ['A', 'B', 'C', 'D']) beds.push((await app.inpatient.createBed(ward.id, { label }, admin)).id);
  beds.push((await app.inpatient.createBed(single.id, { label: 'P1' }, admin)).id);
  const doctorActor: Actor = {
    userId: doctor.user.id,
    role: 'doctor',
    name: doctor.name,
    doctorId: doctor.id,
    requestId: 'demo-seed',
  };
  const admit = async (patientId: number, bedId: number | undefined, reason: string) => {
    const { id } = await app.inpatient.requestAdmission(
      { patient_id: patientId, department_id: ward.department_id, expected_nights: 4, reason },
      doctorActor,
    );
    await app.inpatient.admitPatient({ admissionId: id, body: { bed_id: bedId } }, desk);
    return id;
  };
  const omarStay = await admit(omar.id, beds[0], 'Chest pain under observation; serial troponins');
  const lucasStay = await admit(lucas.id, beds[4], 'Atrial fibrillation, rate control');
  // Both in bed for three days, so the ward's charts have 72 hours of observations (vitals-seed.ts).
  const threeDaysAgo = new Date(app.clock.now().getTime() - 73 * 3_600_000);
  for (const stay of [omarStay, lucasStay]) await demo.backdateStay(stay, threeDaysAgo);
  const summary = {
    diagnosis: 'Paroxysmal atrial fibrillation',
    treatment: 'Rate control with bisoprolol',
    medication: 'Bisoprolol 2.5 mg daily',
    instructions: 'Avoid caffeine',
    follow_up: 'Cardiology clinic in 2 weeks',
  };
  await app.inpatient.orderDischarge({ admissionId: lucasStay, body: summary }, doctorActor);
  const paulaStay = await admit(paula.id, beds[1], 'Hypertensive urgency');
  const paulaSummary = {
    diagnosis: 'Hypertensive urgency',
    treatment: 'Oral amlodipine, observation',
    medication: 'Amlodipine 5 mg daily',
    instructions: 'Measure blood pressure twice a day',
    follow_up: 'GP in one week',
  };
  await app.inpatient.orderDischarge({ admissionId: paulaStay, body: paulaSummary }, doctorActor);
  await app.inpatient.confirmDischarge(paulaStay, desk);
  return { stayId: omarStay, calmStayId: lucasStay, departmentId: ward.department_id, doctor: doctorActor };
}
