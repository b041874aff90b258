import { centsToDecimal } from '../shared/money.ts';
import { type Allergy, allergyInWords, allergyStatement, substanceName } from './allergies.ts';
import { type FormularyEntry, medicineLabel } from './formulary.ts';
import { isLate } from './mar.ts';
import type {
  AllergiesJson,
  AllergyJson,
  DoseJson,
  FormularyEntryJson,
  MedicationOrderJson,
} from './medicines-shapes.ts';
import type { Dose, MedicationRequestView } from './ports.ts';
import { frequencyInWords } from './prescriptions.ts';

// The answers of medicines' use cases, built once from the stores' views.

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

export const formularyJson = (m: FormularyEntry): FormularyEntryJson => ({
  id: m.id,
  generic_name: m.genericName,
  form: m.form,
  strength: m.strength,
  routes: m.routes,
  dose_unit: m.doseUnit,
  price: m.priceCents === null ? null : centsToDecimal(m.priceCents),
  price_cents: m.priceCents,
  active: m.active,
  label: medicineLabel(m),
});

export const allergyJson = (a: Allergy): AllergyJson => ({
  id: a.id,
  patient_id: a.patientId,
  kind: a.substance.kind,
  substance: substanceName(a.substance),
  medicine_id: a.substance.kind === 'medicine' ? a.substance.medicineId : null,
  type: a.type,
  reaction: a.reaction,
  severity: a.severity,
  status: a.status,
  recorded_by: a.recordedBy.name,
  recorded_at: a.recordedAt.toISOString(),
  words: allergyInWords(a),
});

/** The banner's words for a patient's allergies. */
export function allergySummary(allergies: readonly Allergy[]): string {
  const statement = allergyStatement(allergies);
  if (statement.kind === 'not_asked') return 'Allergies not recorded';
  if (statement.kind === 'none_known') return 'No known allergies';
  return `Allergies: ${statement.active.map(allergyInWords).join('; ')}`;
}

export const allergiesJson = (patientId: number, allergies: readonly Allergy[]): AllergiesJson => ({
  patient_id: patientId,
  statement: allergyStatement(allergies).kind,
  summary: allergySummary(allergies),
  allergies: allergies.map(allergyJson),
});

const amountInWords = (n: number) => String(Number(n.toPrecision(6)));

/** An order as the prescription reads: medicine, dose, route, frequency, duration or quantity, instructions. */
export function orderInWords(o: MedicationRequestView): string {
  const words = [
    medicineLabel(o.medicine),
    `${amountInWords(o.dose.amount)} ${o.dose.unit}`,
    o.route,
    frequencyInWords(o.frequency),
    ...(o.durationDays !== null ? [`for ${o.durationDays} days`] : []),
    ...(o.quantity !== null ? [`quantity ${o.quantity}`] : []),
  ].join(', ');
  return o.instructions ? `${words}. ${o.instructions}` : words;
}

export function orderJson(o: MedicationRequestView): MedicationOrderJson {
  const f = o.frequency;
  return {
    id: o.id,
    setting: o.source.kind === 'visit' ? 'outpatient' : 'inpatient',
    patient: { id: o.patient.id, name: o.patient.name },
    doctor: o.doctor,
    appointment_id: o.source.kind === 'visit' ? o.source.appointmentId : null,
    admission_id: o.source.kind === 'stay' ? o.source.admissionId : null,
    medicine: formularyJson(o.medicine),
    dose: o.dose.amount,
    dose_unit: o.dose.unit,
    route: o.route,
    frequency: {
      kind: f.kind,
      times_a_day: f.kind === 'times_a_day' ? f.times : null,
      every_hours: f.kind === 'every_hours' ? f.hours : null,
      at_times: f.kind === 'at_times' ? f.times : null,
      min_interval_hours: f.kind === 'as_needed' ? f.minIntervalHours : null,
      max_per_day: f.kind === 'as_needed' ? f.maxPerDay : null,
      words: frequencyInWords(f),
    },
    duration_days: o.durationDays,
    quantity: o.quantity,
    instructions: o.instructions,
    continue_on_discharge: o.continueOnDischarge,
    allergy_override: o.allergyOverride,
    status: o.status,
    start_date: o.startDate,
    starts_at: o.startsAt.toISOString(),
    ends_at: isoOrNull(o.endsAt),
    requested_at: o.requestedAt.toISOString(),
    discontinued_at: isoOrNull(o.discontinuedAt),
    discontinued_reason: o.discontinuedReason,
    words: orderInWords(o),
  };
}

/** A dose on the MAR; a dose of a discontinued order is never late (it cannot be recorded any more). */
export const doseJson = (d: Dose, now: Date, orderRunning = true): DoseJson => ({
  id: d.id,
  order_id: d.requestId,
  due_at: isoOrNull(d.dueAt),
  status: d.status,
  late: orderRunning && isLate(d, now),
  given_at: isoOrNull(d.givenAt),
  dose: d.amount,
  dose_unit: d.unit,
  reason: d.reason,
  recorded_by: d.recordedBy,
  recorded_at: isoOrNull(d.recordedAt),
});
