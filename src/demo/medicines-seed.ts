import type { App } from '../app.ts';
import type { DemoPerson } from '../db/demo.pg.ts';
import type { Actor } from '../domain/shared/actor.ts';
import type { SeedVisit } from './lab-seed.ts';

/** What the medicines demo builds on: the demo patient and her visits, the ward's patient in bed and his stay. */
export interface MedicinesSeedInput {
  patient: DemoPerson;
  /** The demo patient's recorded visits, oldest first. */
  visits: SeedVisit[];
  inpatient: DemoPerson;
  ward: { stayId: number; doctor: Actor };
}

const HOUR = 3_600_000;

/**
 * Through the clinicians' use cases: the demo patient's allergies (penicillin, and codeine she does not tolerate) and
 * her active prescriptions; the ward's patient recorded as having no known allergies, with a MAR of given, held and
 * late doses (his paracetamol every six hours from twenty hours ago) and morphine as needed, one dose given.
 */
export async function seedMedicines(app: App, input: MedicinesSeedInput): Promise<void> {
  const { patient, visits, inpatient, ward } = input;
  const formulary = (await app.medicines.listFormulary({ per_page: '200' })).items;
  const medicine = (label: string) => {
    const found = formulary.find((m) => m.label === label);
    if (!found) throw new Error(`seed: ${label} is not in the formulary`);
    return found.id;
  };
  const first = visits[0];
  const last = visits.at(-1);
  if (!first || !last) throw new Error('seed: the medicines need the demo patient’s visits');

  await app.medicines.recordAllergy(
    patient.id,
    { substance: 'Penicillin', type: 'allergy', reaction: 'Hives and swollen lips', severity: 'moderate' },
    first.doctor,
  );
  await app.medicines.recordAllergy(
    patient.id,
    { substance: 'Codeine', type: 'intolerance', reaction: 'Nausea and vomiting', severity: 'mild' },
    last.doctor,
  );
  const prescription = { dose_unit: 'mg', route: 'oral', frequency: 'times_a_day', duration_days: 90 };
  await app.medicines.prescribe(
    {
      ...prescription,
      appointment_id: last.appointmentId,
      medicine_id: medicine('Metformin 500 mg tablet'),
      dose: 500,
      times_a_day: 2,
      instructions: 'With breakfast and the evening meal',
    },
    last.doctor,
  );
  await app.medicines.prescribe(
    {
      ...prescription,
      appointment_id: last.appointmentId,
      medicine_id: medicine('Amlodipine 5 mg tablet'),
      dose: 5,
      times_a_day: 1,
    },
    last.doctor,
  );

  const doctor = ward.doctor;
  await app.medicines.recordAllergy(inpatient.id, { no_known_allergies: true }, doctor);
  const now = app.clock.now().getTime();
  const start = Math.floor(now / HOUR) * HOUR - 20 * HOUR;
  const order = await app.medicines.prescribe(
    {
      admission_id: ward.stayId,
      medicine_id: medicine('Paracetamol 1 g/100 mL infusion'),
      dose: 1,
      dose_unit: 'g',
      route: 'iv',
      frequency: 'every_hours',
      every_hours: 6,
      duration_days: 3,
      starts_at: new Date(start).toISOString(),
      instructions: 'Over 15 minutes',
    },
    doctor,
  );
  // Doses due 20, 14, 8 and 2 hours ago: given, held, given, and the last one left late.
  const doses = (await app.medicines.showOrder(order.id, doctor)).doses;
  const [given, held, givenAgain] = doses;
  if (!given || !held || !givenAgain) throw new Error('seed: the paracetamol order has too few doses');
  const givenAt = (hoursAgo: number) => new Date(start + (20 - hoursAgo) * HOUR + 10 * 60_000).toISOString();
  await app.medicines.recordDose(
    given.id,
    { outcome: 'given', dose: 1, dose_unit: 'g', given_at: givenAt(20) },
    doctor,
  );
  await app.medicines.recordDose(
    held.id,
    { outcome: 'held', reason: 'Afebrile and pain-free overnight; reassess in the morning' },
    doctor,
  );
  await app.medicines.recordDose(
    givenAgain.id,
    { outcome: 'given', dose: 1, dose_unit: 'g', given_at: givenAt(8) },
    doctor,
  );
  const morphine = await app.medicines.prescribe(
    {
      admission_id: ward.stayId,
      medicine_id: medicine('Morphine 10 mg/mL injection'),
      dose: 2.5,
      dose_unit: 'mg',
      route: 'iv',
      frequency: 'as_needed',
      min_interval_hours: 4,
      max_per_day: 6,
      duration_days: 3,
      starts_at: new Date(start).toISOString(),
      instructions: 'For chest pain not settled by nitrates',
    },
    doctor,
  );
  await app.medicines.giveAsNeeded(
    morphine.id,
    { dose: 2.5, dose_unit: 'mg', given_at: new Date(now - 5 * HOUR).toISOString() },
    doctor,
  );
}
