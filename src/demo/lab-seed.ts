import type { App } from '../app.ts';
import type { DemoPerson, DemoStore } from '../db/demo.pg.ts';
import type { ResultInput } from '../domain/lab/use-cases.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { addDays, clinicInstant, clinicToday, isoWeekday } from '../domain/shared/clock.ts';

export const DEMO_LAB_EMAIL = 'lab@medora.test';

/** A visit of the demo patient's history, with the doctor who saw them. */
export interface SeedVisit {
  appointmentId: number;
  date: string;
  doctor: Actor;
}

/** What the lab demo builds on: the demo patient's recorded visits, oldest first, and the ward patient's stay. */
export interface LabSeedInput {
  admin: Actor;
  password: string;
  patient: DemoPerson;
  /** The demo patient's recorded visits: the GP's flu visit, the cardiologist's two, the GP's check-up. */
  visits: SeedVisit[];
  ward: { stayId: number; doctor: Actor };
}

const q = (value: number, unit: string): ResultInput => ({ type: 'quantity', value, unit });

// The demo patient's HbA1c at her yearly and half-yearly check-ups with the GP over two years (%), creeping up
// into the diabetic range; the last value is of the check-up in her recorded visits.
const HBA1C_HISTORY = [
  { daysAgo: 728, value: 5.4 },
  { daysAgo: 546, value: 5.6 },
  { daysAgo: 364, value: 5.9 },
  { daysAgo: 273, value: 6.1 },
  { daysAgo: 182, value: 6.4 },
];
const HBA1C_NOW = 6.7;

const CBC: Record<string, ResultInput> = {
  '6690-2': q(6.2, '10*3/uL'),
  '789-8': q(4.5, '10*6/uL'),
  '718-7': q(13.4, 'g/dL'),
  '4544-3': q(40, '%'),
  '787-2': q(89, 'fL'),
  '785-6': q(29.8, 'pg'),
  '786-4': q(33.5, 'g/dL'),
  '788-0': q(13, '%'),
  '777-3': q(260, '10*3/uL'),
};

const LIPIDS: Record<string, ResultInput> = {
  '2093-3': q(212, 'mg/dL'),
  '2571-8': q(150, 'mg/dL'),
  '2085-9': q(52, 'mg/dL'),
  '13457-7': q(130, 'mg/dL'),
};

/** A lab order as the seed takes it through the use cases: who orders what from where, and how far it goes. */
interface DemoOrder {
  doctor: Actor;
  source: { kind: 'visit'; appointmentId: number } | { kind: 'stay'; admissionId: number };
  /** Catalogue codes ordered (a panel's code orders its tests); results by the tests' codes. */
  order: string[];
  results: Record<string, ResultInput>;
  note: string;
  priority?: 'routine' | 'urgent' | 'stat';
  review?: string;
  release?: boolean;
  /** When it was ordered, for history: the order is moved back there once done. */
  at?: Date;
}

/**
 * The lab of the demo clinic through its users' own use cases: a lab technician; the demo patient's released
 * results with a two-year HbA1c trend, a corrected potassium, a lipid panel awaiting the cardiologist's review
 * (not shown to her), and a critical potassium of the ward's patient in bed, not yet acknowledged.
 */
export async function seedLab(app: App, demo: DemoStore, input: LabSeedInput): Promise<void> {
  const tech = await app.staff.createLabTechnician(
    { name: 'Leo Lab', email: DEMO_LAB_EMAIL, password: input.password },
    input.admin,
  );
  const lab: Actor = { userId: tech.id, role: 'lab', name: tech.name, requestId: 'demo-seed' };
  const catalogue = await app.labApi.listCatalogue({ per_page: 200 }, input.admin);
  const testIds = new Map(catalogue.items.map((t) => [t.code, t.id]));
  const timeZone = app.config.clinicTz;

  const place = async (o: DemoOrder) => {
    const placed = await app.lab.placeOrder(
      {
        source: o.source,
        testIds: o.order.map((code) => need(testIds.get(code), `test ${code}`)),
        priority: o.priority ?? 'routine',
        clinicalNote: o.note,
      },
      o.doctor,
    );
    const [work] = (await app.labApi.worklist({ order_number: placed.orderNumber }, lab)).items;
    const observations = new Map<string, number>();
    for (const item of need(work, `order ${placed.orderNumber}`).items) {
      const result = need(o.results[item.code], `a result of ${item.code}`);
      if (item.specimen_type !== 'none')
        await app.lab.collectSpecimen(
          { itemId: item.id, specimenCode: `S${placed.orderNumber.slice(-6)}-${item.id}` },
          lab,
        );
      observations.set(item.code, (await app.lab.enterResult({ itemId: item.id, result }, lab)).observationId);
    }
    await app.lab.finalizeReport({ orderId: placed.id }, lab);
    if (o.review !== undefined) await app.labApi.reviewReport(placed.id, { comment: o.review }, o.doctor);
    if (o.release) await app.labApi.releaseReport(placed.id, o.doctor);
    if (o.at) await demo.backdateLabOrder(placed.id, o.at, timeZone);
    return { id: placed.id, observations, bills: placed.billIds };
  };
  const atTen = (date: string) => clinicInstant(date, '10:00', timeZone);

  const [flu, checkUp, followUp, annual] = input.visits;
  if (!flu || !checkUp || !followUp || !annual) throw new Error('seed: the lab needs the demo patient’s four visits');
  const gp = annual.doctor;

  // Two years of check-ups with the GP, each recorded and paid, each with its HbA1c.
  const today = clinicToday(app.clock, timeZone);
  const [diabetes] = (await demo.diseaseIds(['Type 2 Diabetes'])).values();
  const history = await demo.insertPastAppointments(
    input.patient.id,
    HBA1C_HISTORY.map((h) => ({ doctorId: need(gp.doctorId, 'the GP'), date: weekdayBefore(today, h.daysAgo) })),
  );
  for (const [i, appointmentId] of history.entries()) {
    const date = weekdayBefore(today, need(HBA1C_HISTORY[i], 'a check-up').daysAgo);
    const { billing } = await app.records.recordVisit(
      {
        appointmentId,
        body: {
          disease_id: diabetes,
          diagnosis: 'Check-up: blood sugar watched for a family history of diabetes',
          prescriptions: 'Diet and exercise advice',
          lab_tests: 'HbA1c (ordered in Medora)',
          service_type: 'Preventive health check',
          cost: '60.00',
          record_date: date,
        },
      },
      gp,
    );
    if (billing) await app.billing.takePayment({ billingId: billing.id, body: { method: 'card' } }, input.admin);
    const order = await place({
      doctor: gp,
      source: { kind: 'visit', appointmentId },
      order: ['4548-4'],
      results: { '4548-4': q(need(HBA1C_HISTORY[i], 'a value').value, '%') },
      note: 'Yearly HbA1c: family history of diabetes',
      review: '',
      release: true,
      at: atTen(date),
    });
    for (const bill of order.bills)
      await app.billing.takePayment({ billingId: bill, body: { method: 'card' } }, input.admin);
  }

  // The latest check-up: a full blood count and the HbA1c that confirmed early type 2 diabetes, released.
  await place({
    doctor: gp,
    source: { kind: 'visit', appointmentId: annual.appointmentId },
    order: ['58410-2', '4548-4'],
    results: { ...CBC, '4548-4': q(HBA1C_NOW, '%') },
    note: 'Fatigue; HbA1c trend',
    review: 'HbA1c now in the diabetic range: diet plan, recheck in three months',
    release: true,
    at: atTen(annual.date),
  });

  // The cardiology check-up's potassium, released, then corrected: the first sample was haemolysed.
  const electrolytes = await place({
    doctor: checkUp.doctor,
    source: { kind: 'visit', appointmentId: checkUp.appointmentId },
    order: ['2823-3', '2160-0'],
    results: { '2823-3': q(5.9, 'mmol/L'), '2160-0': q(0.8, 'mg/dL') },
    note: 'Before starting an antihypertensive',
    review: 'Potassium high: repeat on a fresh sample',
    release: true,
    at: atTen(checkUp.date),
  });
  await app.labApi.correctResult(
    need(electrolytes.observations.get('2823-3'), 'the potassium'),
    {
      type: 'quantity',
      value: 4.4,
      unit: 'mmol/L',
      version: 1,
      reason: 'The sample was haemolysed; re-run on a fresh draw',
    },
    lab,
  );

  // The follow-up's lipid panel, signed off by the lab and waiting for the cardiologist: not yet the patient's.
  await place({
    doctor: followUp.doctor,
    source: { kind: 'visit', appointmentId: followUp.appointmentId },
    order: ['24331-1'],
    results: LIPIDS,
    note: 'Cardiovascular risk',
    at: atTen(followUp.date),
  });

  // The ward: the patient in bed A's potassium is critical, and stands until the cardiologist acknowledges it.
  await place({
    doctor: input.ward.doctor,
    source: { kind: 'stay', admissionId: input.ward.stayId },
    order: ['2823-3', '10839-9'],
    results: { '2823-3': q(6.8, 'mmol/L'), '10839-9': q(0.02, 'ng/mL') },
    note: 'Serial troponins; on an ACE inhibitor',
    priority: 'stat',
  });
}

/** The weekday `days` before `today`, or the weekday just before that. */
function weekdayBefore(today: string, days: number): string {
  let date = addDays(today, -days);
  while (isoWeekday(date) > 5) date = addDays(date, -1);
  return date;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`seed: ${what} is missing`);
  return value;
}
