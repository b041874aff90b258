/**
 * What each user of the hospital day does, as HTTP requests to the two instances (taken in turn, as a load
 * balancer without sticky sessions would: a session works on either). Every request is timed to its last byte and
 * recorded as a Sample under its action's name; an action that finds nothing left to do (no visit to record, no
 * bill to take) answers false and the user picks another.
 */
import type { Sample } from './day-report.ts';
import type { DayFixtures, WardWork } from './day-fixtures.ts';
import { BENCH_PASSWORD } from './dataset.ts';
import { type DayAction, type DayRole, type Measured, SIGN_IN } from './day-mix.ts';

const REQUEST_TIMEOUT_MS = 30_000;
const SIGN_IN_ATTEMPTS = 5;
const FHIR_JSON = 'application/fhir+json';
/** Every vital the set form takes: a complete set, scored by NEWS2. */
const VITAL_SET = {
  systolic: 124,
  diastolic: 78,
  heart_rate: 84,
  respiratory_rate: 16,
  temperature: 37.1,
  spo2: 97,
  on_oxygen: false,
  consciousness: 'A',
};
const VISIT_NOTE = {
  diagnosis: 'Seen on the hospital day; findings unremarkable.',
  service_type: 'Consultation',
  cost: '80.00',
};

/** What the actions share: the instances, the day's work, the seeded generator and where samples go. */
export interface DayContext {
  urls: readonly string[];
  fixtures: DayFixtures;
  random: () => number;
  record(sample: Sample): void;
  /** Days ahead patients look for free slots in. */
  bookingDays: number;
}

/** One signed-in user. `ward` for a nurse; `doctor` for a doctor; `patientId` for a patient. */
export interface DayUser {
  role: DayRole;
  email: string;
  token?: string;
  patientId?: number;
  doctor?: DayFixtures['doctors'][number];
  ward?: WardWork;
  /** Visits this doctor recorded today, for a prescription at one of them. */
  recorded: number[];
}

let turn = 0;
const nextUrl = (ctx: DayContext) => ctx.urls[turn++ % ctx.urls.length] as string;

interface Answer {
  status: number;
  body: unknown;
  /** Seconds a 429 or 503 asks to wait (`Retry-After`). */
  retryAfter?: number;
}

/**
 * Sends one request to the next instance, reads its whole answer and records it under `action`; `expected`
 * statuses are refusals a correct run may get (409 on a slot taken first).
 */
async function call(
  ctx: DayContext,
  user: DayUser,
  action: Measured,
  method: string,
  path: string,
  options: { body?: unknown; expected?: number[]; accept?: string; json?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (user.token) headers.authorization = `Bearer ${user.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  let status = 0;
  let body: unknown;
  let retryAfter: number | undefined;
  try {
    const res = await fetch(`${nextUrl(ctx)}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    status = res.status;
    retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN) || undefined;
    body = options.json !== false && text.startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    status = 0;
  }
  ctx.record({
    action,
    ms: performance.now() - started,
    status,
    expected: options.expected?.includes(status) ?? false,
  });
  return { status, body, retryAfter };
}

/**
 * Signs the user in with the bench password, waiting as a 429 or 503 asks and trying again, as the sign-in page
 * does; false when it still failed (the user then sits the day out). Every refused attempt counts as an error.
 */
export async function signIn(ctx: DayContext, user: DayUser): Promise<boolean> {
  for (let attempt = 0; attempt < SIGN_IN_ATTEMPTS; attempt++) {
    const answer = await call(ctx, user, SIGN_IN, 'POST', '/api/login', {
      body: { email: user.email, password: BENCH_PASSWORD },
    });
    const token = (answer.body as { token?: unknown } | undefined)?.token;
    if (answer.status === 200 && typeof token === 'string') {
      user.token = token;
      return true;
    }
    if (answer.status !== 429 && answer.status !== 503) return false;
    await new Promise((resolve) => setTimeout(resolve, (answer.retryAfter ?? 5) * 1000));
  }
  return false;
}

const pick = <T>(ctx: DayContext, list: readonly T[]): T | undefined =>
  list.length ? list[Math.floor(ctx.random() * list.length)] : undefined;

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type Run = (ctx: DayContext, user: DayUser) => Promise<boolean>;

/** A read whose answer the action needs only to have: true once sent. */
const read =
  (action: DayAction, path: (ctx: DayContext, user: DayUser) => string | undefined, accept?: string): Run =>
  async (ctx, user) => {
    const target = path(ctx, user);
    if (target === undefined) return false;
    await call(ctx, user, action, 'GET', target, { accept });
    return true;
  };

/** The next of a shared list of targets (each used once), or undefined when the day has used them all. */
const take = <T>(list: T[]): T | undefined => list.shift();

const fhirPatient = (ctx: DayContext) => pick(ctx, ctx.fixtures.fhirPatientIds);
const lastName = (ctx: DayContext) => pick(ctx, ctx.fixtures.lastNames);

/** Free slots of a doctor on a coming day, then a booking of one of them (409 when someone was quicker). */
const book: Run = async (ctx, user) => {
  const doctorId = pick(ctx, ctx.fixtures.doctorIds);
  const date = addDays(ctx.fixtures.today, 1 + Math.floor(ctx.random() * ctx.bookingDays));
  const slots = await call(
    ctx,
    user,
    'patient: free slots',
    'GET',
    `/api/appointments/available/${doctorId}?date=${date}`,
  );
  const offered = (slots.body as { available_appointments?: { schedule_id: number; status: string }[] } | undefined)
    ?.available_appointments;
  const free = (offered ?? []).filter((slot) => slot.status === 'available');
  const slot = pick(ctx, free);
  if (!slot) return true;
  await call(ctx, user, 'patient: book', 'POST', '/api/appointments/book', {
    body: { doctor_id: doctorId, schedule_id: slot.schedule_id, date },
    expected: [409],
  });
  return true;
};

const recordVisit: Run = async (ctx, user) => {
  const visit = user.doctor && take(user.doctor.toRecord);
  if (visit === undefined) return false;
  const answer = await call(
    ctx,
    user,
    'doctor: record visit',
    'POST',
    `/api/doctor/appointments/${visit}/medical-record`,
    {
      body: { disease_id: ctx.fixtures.diseaseId, ...VISIT_NOTE },
    },
  );
  if (answer.status < 300) user.recorded.push(visit);
  return true;
};

const prescribe: Run = async (ctx, user) => {
  const visit = user.recorded.pop();
  if (visit === undefined) return false;
  await call(ctx, user, 'doctor: prescribe', 'POST', '/api/medication-orders', {
    body: {
      appointment_id: visit,
      medicine_id: ctx.fixtures.medicineId,
      dose: 500,
      dose_unit: 'mg',
      route: 'oral',
      frequency: 'times_a_day',
      times_a_day: 3,
      duration_days: 5,
      instructions: 'After meals',
    },
    expected: [409],
  });
  return true;
};

const recordVitals: Run = async (ctx, user) => {
  const admission = user.ward && pick(ctx, user.ward.admissionIds);
  if (admission === undefined) return false;
  await call(ctx, user, 'nurse: record vitals', 'POST', '/api/vitals/sets', {
    body: { admission_id: admission, ...VITAL_SET },
  });
  return true;
};

const recordDose: Run = async (ctx, user) => {
  const due = user.ward && take(user.ward.dueDoses);
  if (due === undefined) return false;
  await call(ctx, user, 'nurse: record dose', 'POST', `/api/medication-doses/${due.id}/record`, {
    body: { outcome: 'given', dose: due.dose, dose_unit: due.unit },
    // Another nurse of the ward may have given it a moment before (the same dose left in a rerun): 409.
    expected: [409],
  });
  return true;
};

const checkIn: Run = async (ctx, user) => {
  const visit = take(ctx.fixtures.toCheckIn);
  if (visit === undefined) return false;
  await call(ctx, user, 'desk: check in', 'POST', `/api/appointments/${visit}/check-in`, { expected: [409] });
  return true;
};

const takePayment: Run = async (ctx, user) => {
  const bill = take(ctx.fixtures.unpaidBills);
  if (bill === undefined) return false;
  await call(ctx, user, 'desk: take payment', 'POST', `/api/billings/${bill}/payments`, { body: { method: 'cash' } });
  return true;
};

const exportPatient: Run = async (ctx, user) => {
  await call(
    ctx,
    user,
    'fhir: export patient',
    'GET',
    `/fhir/R4/Patient/${fhirPatient(ctx)}/$everything?_format=${encodeURIComponent('application/fhir+ndjson')}`,
    { accept: 'application/fhir+ndjson', json: false },
  );
  return true;
};

const treatedPatient = (ctx: DayContext, user: DayUser) => user.doctor && pick(ctx, user.doctor.treated);

/** Every action of the mix, by name. */
export const ACTIONS: Record<DayAction, Run> = {
  'patient: doctors': read('patient: doctors', () => '/api/doctors'),
  'patient: free slots': read(
    'patient: free slots',
    (ctx) =>
      `/api/appointments/available/${pick(ctx, ctx.fixtures.doctorIds)}?date=${addDays(ctx.fixtures.today, 1 + Math.floor(ctx.random() * ctx.bookingDays))}`,
  ),
  'patient: book': book,
  'patient: appointments': read('patient: appointments', () => '/api/patient/appointments'),
  'patient: records': read('patient: records', () => '/api/patient/records'),
  'patient: bills': read('patient: bills', () => '/api/patient/billings'),
  'patient: lab results': read('patient: lab results', () => '/api/patient/lab-results'),
  'patient: prescriptions': read('patient: prescriptions', () => '/api/patient/prescriptions'),
  "doctor: day's agenda": read("doctor: day's agenda", () => '/api/doctor/agenda'),
  'doctor: appointments': read('doctor: appointments', () => '/api/doctor/appointments'),
  'doctor: patient': read('doctor: patient', (ctx, user) => {
    const patient = treatedPatient(ctx, user);
    return patient === undefined ? undefined : `/api/doctor/patients/${patient}`;
  }),
  'doctor: patient lab results': read('doctor: patient lab results', (ctx, user) => {
    const patient = treatedPatient(ctx, user);
    return patient === undefined ? undefined : `/api/doctor/patients/${patient}/lab-results`;
  }),
  'doctor: results to review': read('doctor: results to review', () => '/api/doctor/results-to-review'),
  'doctor: record visit': recordVisit,
  'doctor: prescribe': prescribe,
  'doctor: NEWS2 alerts': read('doctor: NEWS2 alerts', () => '/api/doctor/news2-alerts'),
  'nurse: bed board': read('nurse: bed board', (_ctx, user) =>
    user.ward ? `/api/bed-board?department_id=${user.ward.departmentId}` : undefined,
  ),
  'nurse: flowsheet': read('nurse: flowsheet', (ctx, user) => {
    const admission = user.ward && pick(ctx, user.ward.admissionIds);
    return admission === undefined ? undefined : `/api/admissions/${admission}/flowsheet`;
  }),
  'nurse: record vitals': recordVitals,
  'nurse: ward MAR': read('nurse: ward MAR', (_ctx, user) =>
    user.ward ? `/api/wards/${user.ward.departmentId}/mar` : undefined,
  ),
  'nurse: record dose': recordDose,
  "desk: day's overview": read("desk: day's overview", () => '/api/appointments/day'),
  'desk: appointments': read('desk: appointments', () => '/api/appointments'),
  'desk: check in': checkIn,
  'desk: take payment': takePayment,
  'desk: bed board': read('desk: bed board', () => '/api/bed-board'),
  'desk: find patient': read('desk: find patient', (ctx) => `/api/patients?q=${lastName(ctx)}`),
  'fhir: search patients': read(
    'fhir: search patients',
    (ctx) => `/fhir/R4/Patient?name=${lastName(ctx)}&_count=20`,
    FHIR_JSON,
  ),
  'fhir: search observations': read(
    'fhir: search observations',
    (ctx) => `/fhir/R4/Observation?patient=${fhirPatient(ctx)}&_count=50`,
    FHIR_JSON,
  ),
  'fhir: search appointments': read(
    'fhir: search appointments',
    (ctx) => `/fhir/R4/Appointment?patient=${fhirPatient(ctx)}&_count=50`,
    FHIR_JSON,
  ),
  'fhir: $everything page': read(
    'fhir: $everything page',
    (ctx) => `/fhir/R4/Patient/${fhirPatient(ctx)}/$everything?_count=100`,
    FHIR_JSON,
  ),
  'fhir: export patient': exportPatient,
};
