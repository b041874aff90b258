import { NamedShape } from '../shared/shared-shapes.ts';
import {
  array,
  boolean,
  component,
  date,
  dateTime,
  id,
  integer,
  nullable,
  number,
  object,
  oneOfValues,
  ref,
  type Static,
  string,
  text,
} from '../shared/wire-schema.ts';
import { FLUID_KINDS, INTAKE_ROUTES, MAX_FLUID_ML, OUTPUT_ROUTES } from './fluid-balance.ts';
import { ACVPU, NEWS2_PARAMETERS } from './news2.ts';

// Vital signs' requests and answers, written once (docs/architecture.md "The wire contract").

export const MAX_NOTE = 5000;
export const MAX_IDEMPOTENCY_KEY = 200;

export const IdempotencyKeyHeader = {
  'Idempotency-Key': string({
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY,
    description: 'Optional. The same key from the same user again stores nothing new and answers what was stored',
  }),
};
export const MAX_REASON = 1000;
export const TEMPERATURE_UNITS = ['Cel', '[degF]'] as const;

const vitalFields = {
  systolic: number({ description: 'mm[Hg]; with `diastolic`' }),
  diastolic: number({ description: 'mm[Hg]; below `systolic`' }),
  heart_rate: number({ description: '/min (20–300)' }),
  respiratory_rate: number({ description: '/min' }),
  temperature: number({ description: 'In `temperature_unit` (Cel unless given): 25–45 °C once converted' }),
  temperature_unit: text(64, { rule: 'line', description: 'UCUM: Cel (the default) or [degF]; stored as Cel' }),
  spo2: number({ description: '%' }),
  on_oxygen: boolean({ description: 'Breathing supplemental oxygen (air when absent)' }),
  consciousness: oneOfValues(ACVPU, 'ACVPU: alert, new confusion, voice, pain, unresponsive'),
  weight: number({ description: 'In `weight_unit` (kg unless given)' }),
  weight_unit: text(64, { rule: 'line', description: 'UCUM: kg (the default), g, [lb_av]' }),
  height: number({ description: 'In `height_unit` (cm unless given)' }),
  height_unit: text(64, { rule: 'line', description: 'UCUM: cm (the default), m, [in_i]' }),
  pain_score: number({ description: '0–10' }),
};
const VITAL_FIELD_NAMES = Object.keys(vitalFields) as (keyof typeof vitalFields)[];

export const VitalSetRequestShape = object(
  {
    admission_id: id('The stay the set is taken during (or `appointment_id`)'),
    appointment_id: id('The visit the set is taken at (or `admission_id`)'),
    effective_at: dateTime('When the set was taken; now when absent'),
    ...vitalFields,
  },
  { optional: ['admission_id', 'appointment_id', 'effective_at', ...VITAL_FIELD_NAMES] },
);

export const VitalCorrectionRequestShape = object(
  {
    version: id('The version corrected; a stale one is 409'),
    reason: text(MAX_REASON),
    ...vitalFields,
  },
  { optional: VITAL_FIELD_NAMES },
);

export const Spo2ScaleRequestShape = object({
  scale: integer({ minimum: 1, maximum: 2, description: '2: the hypercapnic SpO2 scale of NEWS2, set by a doctor' }),
});

export const FluidRequestShape = object(
  {
    kind: oneOfValues(FLUID_KINDS),
    route: oneOfValues([...new Set([...INTAKE_ROUTES, ...OUTPUT_ROUTES])]),
    volume_ml: integer({ minimum: 1, maximum: MAX_FLUID_ML }),
    effective_at: dateTime('When; now when absent'),
  },
  { optional: ['effective_at'] },
);

export const NursingNoteRequestShape = object(
  { body: text(MAX_NOTE, { rule: 'untrimmed' }), corrects: id('The note this one corrects') },
  { optional: ['corrects'] },
);

// ── Answers ──────────────────────────────────────────────────────────────────────────────────────────────────────

export const News2Shape = component(
  'News2',
  object({
    total: integer({ minimum: 0, maximum: 20 }),
    scale: integer({ minimum: 1, maximum: 2 }),
    risk: oneOfValues(['low', 'low-medium', 'medium', 'high']),
    frequency: oneOfValues(['12-hourly', '4-6-hourly', 'hourly', 'continuous']),
    response: string({ description: "The RCP's clinical response to the score" }),
    single_three: boolean({ description: 'A single parameter scores 3' }),
    alert: boolean({ description: 'Medium or high: the ward and the patient’s doctor are alerted' }),
    parameters: object(
      Object.fromEntries(NEWS2_PARAMETERS.map((p) => [p, integer({ minimum: 0, maximum: 3 })])) as Record<
        (typeof NEWS2_PARAMETERS)[number],
        ReturnType<typeof integer>
      >,
    ),
  }),
);

export const VitalValuesShape = object({
  systolic: nullable(number()),
  diastolic: nullable(number()),
  heart_rate: nullable(number()),
  respiratory_rate: nullable(number()),
  temperature: nullable(number({ description: 'In `temperature_unit`, the clinic’s' })),
  spo2: nullable(number()),
  on_oxygen: nullable(boolean()),
  consciousness: nullable(oneOfValues(ACVPU)),
  weight: nullable(number({ description: 'kg' })),
  height: nullable(number({ description: 'cm' })),
  bmi: nullable(number({ description: 'kg/m2, from weight and height' })),
  pain_score: nullable(number()),
});

export const VitalSetShape = component(
  'VitalSet',
  object({
    id: id(),
    patient: ref(NamedShape),
    admission_id: nullable(id()),
    appointment_id: nullable(id()),
    effective_at: dateTime(),
    recorded_at: dateTime(),
    recorded_by: ref(NamedShape),
    version: integer({ minimum: 1 }),
    values: VitalValuesShape,
    temperature_unit: oneOfValues(TEMPERATURE_UNITS),
    news2: nullable(ref(News2Shape)),
    next_due_at: nullable(dateTime('When the next set is due, by the score’s frequency')),
    overdue: boolean(),
  }),
);
export type VitalSetJson = Static<typeof VitalSetShape>;

const point = object({ at: dateTime(), value: nullable(number()), set_id: id() });

export const FlowsheetShape = object({
  admission_id: id(),
  patient: ref(NamedShape),
  patient_birth_date: nullable(date('As the printed temperature chart shows it; null when not given')),
  temperature_unit: oneOfValues(TEMPERATURE_UNITS),
  scale: integer({ minimum: 1, maximum: 2 }),
  series: object({
    ...Object.fromEntries(
      [
        'systolic',
        'diastolic',
        'heart_rate',
        'respiratory_rate',
        'temperature',
        'spo2',
        'weight',
        'pain_score',
        'news2',
      ].map((k) => [k, array(point)]),
    ),
  }),
  sets: array(ref(VitalSetShape)),
});
export type FlowsheetJson = Static<typeof FlowsheetShape>;

const totals = object({
  start: dateTime(),
  end: dateTime(),
  intake_ml: integer(),
  output_ml: integer(),
  balance_ml: integer(),
  running_balance_ml: integer(),
});

export const FluidBalanceShape = object({
  admission_id: id(),
  shift_hours: oneOfValues([8, 12]),
  events: array(
    object({
      id: id(),
      kind: oneOfValues(FLUID_KINDS),
      route: string(),
      volume_ml: integer(),
      effective_at: dateTime(),
      recorded_by: ref(NamedShape),
    }),
  ),
  shifts: array(totals),
  days: array(totals),
  balance_ml: integer({ description: 'Intake less output over the whole stay' }),
});
export type FluidBalanceJson = Static<typeof FluidBalanceShape>;

export const NursingNoteShape = component(
  'NursingNote',
  object({
    id: id(),
    body: string(),
    written_at: dateTime(),
    written_by: object({ id: id(), name: string(), role: string() }),
    corrects: nullable(id()),
    corrected_by: nullable(id('The later note that corrects this one')),
  }),
);
export type NursingNoteJson = Static<typeof NursingNoteShape>;

export const News2AlertShape = component(
  'News2Alert',
  object({
    id: id(),
    set_id: id(),
    admission_id: id(),
    patient: ref(NamedShape),
    bed: object({ id: id(), label: string(), room: string(), ward: string() }),
    total: integer(),
    risk: oneOfValues(['medium', 'high']),
    raised_at: dateTime(),
  }),
);
export type News2AlertJson = Static<typeof News2AlertShape>;

export const Spo2ScaleShape = object({ admission_id: id(), scale: integer({ minimum: 1, maximum: 2 }) });
