import type { App } from '../app.ts';
import type { Actor } from '../domain/shared/actor.ts';

export const DEMO_NURSE_EMAIL = 'nurse@medora.test';

const HOUR = 3_600_000;

/** A complete set, as the record-vitals form sends it (NEWS2 scores it). */
interface DemoSet {
  respiratory_rate: number;
  spo2: number;
  systolic: number;
  diastolic: number;
  heart_rate: number;
  temperature: number;
}

/** Scores NEWS2 0: everything in its normal band, on air, alert. */
const CALM: DemoSet = {
  respiratory_rate: 15,
  spo2: 97,
  systolic: 128,
  diastolic: 78,
  heart_rate: 76,
  temperature: 36.8,
};

// The ward patient with chest pain, getting septic over the last day: NEWS2 1 → 7 with no single parameter at 3
// (pulse, then temperature, SpO2, systolic, respiration join in), each set 4 hours after the one before.
const DETERIORATING: { hoursAgo: number; set: DemoSet }[] = [
  { hoursAgo: 24, set: { ...CALM, heart_rate: 92 } },
  { hoursAgo: 20, set: { ...CALM, heart_rate: 95, temperature: 38.2 } },
  { hoursAgo: 16, set: { ...CALM, heart_rate: 98, temperature: 38.4, spo2: 95 } },
  { hoursAgo: 12, set: { ...CALM, heart_rate: 112, temperature: 38.5, spo2: 95 } },
  { hoursAgo: 8, set: { ...CALM, heart_rate: 114, temperature: 38.7, spo2: 95, systolic: 108, diastolic: 70 } },
  {
    hoursAgo: 4,
    set: { ...CALM, heart_rate: 116, temperature: 38.9, spo2: 94, respiratory_rate: 21, systolic: 115, diastolic: 72 },
  },
  {
    hoursAgo: 1,
    set: { ...CALM, heart_rate: 118, temperature: 39, spo2: 93, respiratory_rate: 22, systolic: 112, diastolic: 70 },
  },
];

/** Intake and output over the deteriorating patient's last day: drinking less, a drip started, less urine. */
const FLUIDS: { hoursAgo: number; kind: 'intake' | 'output'; route: string; volume_ml: number }[] = [
  { hoursAgo: 23, kind: 'intake', route: 'oral', volume_ml: 300 },
  { hoursAgo: 21, kind: 'output', route: 'urine', volume_ml: 350 },
  { hoursAgo: 18, kind: 'intake', route: 'oral', volume_ml: 250 },
  { hoursAgo: 15, kind: 'output', route: 'urine', volume_ml: 250 },
  { hoursAgo: 12, kind: 'intake', route: 'oral', volume_ml: 150 },
  { hoursAgo: 11, kind: 'intake', route: 'intravenous', volume_ml: 1000 },
  { hoursAgo: 9, kind: 'output', route: 'urine', volume_ml: 150 },
  { hoursAgo: 5, kind: 'output', route: 'vomit', volume_ml: 100 },
  { hoursAgo: 3, kind: 'intake', route: 'intravenous', volume_ml: 500 },
  { hoursAgo: 2, kind: 'output', route: 'urine', volume_ml: 80 },
];

export interface VitalsSeedInput {
  admin: Actor;
  password: string;
  departmentId: number;
  /** The stay that deteriorates over the last day, and one that stays calm; both 72 hours in a bed. */
  deteriorating: number;
  calm: number;
}

/**
 * The ward's nursing through the nurse's own use cases: a nurse of the ward; 72 hours of observations of its two
 * patients in bed, the chest-pain patient's NEWS2 rising from 1 to 7 over the last day (its alert standing on the
 * board and the doctor's day), and that stay's fluid balance.
 */
export async function seedVitals(app: App, input: VitalsSeedInput): Promise<void> {
  const staff = await app.staff.createNurse(
    { name: 'Nora Nightingale', email: DEMO_NURSE_EMAIL, password: input.password, department_id: input.departmentId },
    input.admin,
  );
  const nurse: Actor = {
    userId: staff.id,
    role: 'nurse',
    name: staff.name,
    wardId: input.departmentId,
    requestId: 'demo-seed',
  };
  const now = app.clock.now();
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR).toISOString();
  const record = (admissionId: number, hoursAgo: number, set: DemoSet, extra: Record<string, unknown> = {}) =>
    app.vitals.recordVitalSet(
      {
        body: {
          admission_id: admissionId,
          effective_at: at(hoursAgo),
          on_oxygen: false,
          consciousness: 'A',
          ...set,
          ...extra,
        },
      },
      nurse,
    );
  const onAdmission = { weight: 84, height: 178, pain_score: 2 };
  // Six-hourly while calm, as NEWS2 1-4 asks at most; a little variation so the chart is not a ruler.
  for (let hoursAgo = 72, i = 0; hoursAgo > 24; hoursAgo -= 6, i++) {
    const wobble = { heart_rate: 84 + (i % 3) * 2, temperature: 36.7 + (i % 2) / 10 };
    await record(input.deteriorating, hoursAgo, { ...CALM, ...wobble }, hoursAgo === 72 ? onAdmission : {});
  }
  for (const { hoursAgo, set } of DETERIORATING) await record(input.deteriorating, hoursAgo, set);
  for (let hoursAgo = 72, i = 0; hoursAgo > 0; hoursAgo -= 8, i++) {
    const wobble = { heart_rate: 72 + (i % 4) * 3, systolic: 124 + (i % 3) * 4 };
    await record(input.calm, hoursAgo, { ...CALM, ...wobble }, hoursAgo === 72 ? { weight: 71, height: 169 } : {});
  }
  for (const { hoursAgo, ...fluid } of FLUIDS)
    await app.vitals.addFluid(
      { admissionId: input.deteriorating, body: { ...fluid, effective_at: at(hoursAgo) } },
      nurse,
    );
}
