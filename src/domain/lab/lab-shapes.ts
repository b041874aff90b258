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
  propertiesOf,
  queryOf,
  ref,
  type Static,
  string,
  text,
} from '../shared/wire-schema.ts';
import { PageQuery } from '../shared/pagination.ts';
import {
  BAND_SEXES,
  CATALOGUE_KINDS,
  MAX_AGE_DAYS,
  CATEGORIES,
  CODE_SYSTEMS,
  RESULT_TYPES,
  SPECIMEN_TYPES,
} from './catalogue.ts';
import { INTERPRETATIONS } from './interpretation.ts';
import {
  ITEM_STATUSES,
  MAX_CLINICAL_NOTE,
  MAX_TESTS_PER_ORDER,
  ORDER_STATUSES,
  PRIORITIES,
  REJECTION_REASONS,
} from './orders.ts';
import { OBSERVATION_STATUSES, REPORT_STATUSES } from './reports.ts';

// The lab's requests and answers, written once (docs/architecture.md "The wire contract").

export const MAX_RESULT_TEXT = 20000;
export const MAX_REASON = 1000;
export const MAX_COMMENT = 2000;

// ── Requests ─────────────────────────────────────────────────────────────────────────────────────────────────────

export const OrderRequestShape = object(
  {
    appointment_id: id('The visit the tests are ordered from (or `admission_id`)'),
    admission_id: id('The hospital stay the tests are ordered from (or `appointment_id`)'),
    test_ids: array(id(), {
      minItems: 1,
      maxItems: MAX_TESTS_PER_ORDER,
      description: 'Catalogue tests and panels; a panel orders its member tests',
    }),
    priority: oneOfValues(PRIORITIES, 'routine (the default), urgent or stat'),
    note: text(MAX_CLINICAL_NOTE, { min: 0, description: 'The clinical note for the lab' }),
  },
  { optional: ['appointment_id', 'admission_id', 'priority', 'note'] },
);

export const CollectRequestShape = object({
  specimen_code: text(40, { rule: 'line', description: 'The id on the specimen label, kept whole' }),
});

export const RejectSpecimenRequestShape = object(
  { reason: oneOfValues(REJECTION_REASONS), note: text(MAX_REASON, { min: 0 }) },
  { optional: ['note'] },
);

const resultFields = {
  type: oneOfValues(RESULT_TYPES, "The test's result type"),
  value: number({ description: 'A quantity: the number measured, in `unit`' }),
  unit: text(64, {
    rule: 'line',
    description: "A quantity's UCUM unit; converted to the test's own when commensurable",
  }),
  code: text(40, { rule: 'line', description: 'A coded result: one of the answers the test allows' }),
  text: text(MAX_RESULT_TEXT, { description: 'A text result (an imaging report)' }),
};

export const ResultRequestShape = object(resultFields, { optional: ['value', 'unit', 'code', 'text'] });

export const CorrectionRequestShape = object(
  {
    ...resultFields,
    version: id('The version being corrected: a stale one is a 409 `result_changed`'),
    reason: text(MAX_REASON, { description: 'Why the result is corrected; kept in its history' }),
  },
  { optional: ['value', 'unit', 'code', 'text'] },
);

export const ReviewRequestShape = object({ comment: text(MAX_COMMENT, { min: 0 }) }, { optional: ['comment'] });

export const AttachRequestShape = object({ order_number: text(40, { rule: 'line' }) });

export const RejectUnmatchedRequestShape = object({ note: text(MAX_REASON) });

export const LabTestRequestShape = object(
  {
    code_system: oneOfValues(CODE_SYSTEMS),
    code: text(40, { rule: 'line' }),
    name: text(200, { rule: 'line' }),
    category: oneOfValues(CATEGORIES),
    specimen_type: oneOfValues(SPECIMEN_TYPES),
    result_type: oneOfValues(['quantity', 'text'] as const, 'A quantity (with `unit`) or a text report'),
    unit: text(64, { rule: 'line', description: 'UCUM; required for a quantity' }),
    physical_low: number(),
    physical_high: number(),
    range_low: number({ description: 'The adult reference range, for anyone' }),
    range_high: number(),
    critical_low: number(),
    critical_high: number(),
    price: text(12, { rule: 'line', description: 'Dollars, e.g. 12.50' }),
    turnaround_minutes: integer({ minimum: 1, maximum: 525600 }),
  },
  {
    optional: ['unit', 'physical_low', 'physical_high', 'range_low', 'range_high', 'critical_low', 'critical_high'],
  },
);

/** The most bands a test's ranges, or its critical limits, are split into. */
export const MAX_BANDS = 40;

/** One band of a test's ranges or critical limits, for one sex (or anyone) and ages in whole days of life. */
export const BandRequest = object(
  {
    sex: oneOfValues(BAND_SEXES, 'male, female, or any (read for a patient of another or unknown gender too)'),
    age_from_days: number({ minimum: 0, maximum: MAX_AGE_DAYS, description: 'From this age in days, inclusive (0)' }),
    age_to_days: nullable(
      number({ minimum: 1, maximum: MAX_AGE_DAYS, description: 'Up to this age in days, exclusive; null for no end' }),
    ),
    low: nullable(number({ description: "In the test's unit; null for no low end" })),
    high: nullable(number({ description: "In the test's unit; null for no high end" })),
  },
  { optional: ['age_from_days', 'age_to_days', 'low', 'high'] },
);

const testUpdateFields = {
  name: text(200, { rule: 'line' }),
  price: text(12, { rule: 'line', description: 'Dollars, e.g. 12.50' }),
  turnaround_minutes: integer({ minimum: 1, maximum: 525600 }),
  active: boolean(),
  physical_low: nullable(
    number({ description: 'What can be measured at all; given with `physical_high`, both replace' }),
  ),
  physical_high: nullable(number()),
  row_version: id('The version of the test being changed: a stale one is a 409 `test_changed`'),
};

/** The scalar fields of a change of a test (its band lists are read band by band, BandRequest). */
export const LabTestUpdateFields = object(testUpdateFields, {
  optional: ['physical_low', 'physical_high', 'row_version'],
});

export const LabTestUpdateShape = object(
  {
    ...testUpdateFields,
    ranges: array(BandRequest, {
      maxItems: MAX_BANDS,
      description: 'Replaces the reference ranges when given; no two bands of one sex may overlap in age',
    }),
    critical_limits: array(BandRequest, {
      maxItems: MAX_BANDS,
      description: 'Replaces the critical limits when given; no two bands of one sex may overlap in age',
    }),
  },
  { optional: ['physical_low', 'physical_high', 'row_version', 'ranges', 'critical_limits'] },
);

export const WorklistQuery = queryOf({
  ...propertiesOf(PageQuery),
  order_number: text(40, { rule: 'line', description: 'One order by its number, whatever its status' }),
});

export const PatientOrdersQuery = queryOf({ ...propertiesOf(PageQuery), patient_id: id() });

// ── Answers ──────────────────────────────────────────────────────────────────────────────────────────────────────

const bandShape = object({
  sex: oneOfValues(BAND_SEXES),
  age_from_days: integer({ minimum: 0 }),
  age_to_days: nullable(integer({ minimum: 1 })),
  low: nullable(number()),
  high: nullable(number()),
});

export const LabTestShape = component(
  'LabTest',
  object({
    id: id(),
    kind: oneOfValues(CATALOGUE_KINDS),
    category: oneOfValues(CATEGORIES),
    code_system: oneOfValues(CODE_SYSTEMS),
    code: string(),
    name: string(),
    specimen_type: oneOfValues(SPECIMEN_TYPES),
    result_type: nullable(oneOfValues(RESULT_TYPES)),
    unit: nullable(string()),
    physical_low: nullable(number()),
    physical_high: nullable(number()),
    answers: array(string()),
    ranges: array(bandShape),
    critical_limits: array(bandShape),
    price: string({ description: 'Dollars' }),
    price_cents: integer({ minimum: 0 }),
    turnaround_minutes: integer({ minimum: 1 }),
    member_ids: array(id()),
    active: boolean(),
    row_version: integer({ minimum: 1, description: 'Each change of the test is a new version' }),
  }),
);
export type LabTestJson = Static<typeof LabTestShape>;

const valueFields = {
  value_type: oneOfValues(RESULT_TYPES),
  value: nullable(number()),
  unit: nullable(string()),
  answer: nullable(string({ description: 'A coded result' })),
  text: nullable(string()),
};

export const ObservationVersionShape = component(
  'LabObservationVersion',
  object({
    version: integer({ minimum: 1 }),
    ...valueFields,
    interpretation: nullable(oneOfValues(INTERPRETATIONS)),
    status: oneOfValues(OBSERVATION_STATUSES),
    recorded_at: dateTime(),
    recorded_by: nullable(string({ description: 'Who entered or changed it' })),
    reason: nullable(string({ description: 'Why it changed; null for the first version' })),
  }),
);

export const ObservationShape = component(
  'LabObservation',
  object({
    id: id(),
    code: string(),
    name: string(),
    ...valueFields,
    interpretation: nullable(oneOfValues(INTERPRETATIONS, 'N, L, H, LL (critically low), HH (critically high)')),
    interpretation_words: nullable(string()),
    range: nullable(object({ low: nullable(number()), high: nullable(number()) })),
    range_words: string(),
    status: oneOfValues(OBSERVATION_STATUSES),
    version: integer({ minimum: 1 }),
    effective_at: dateTime(),
    versions: array(ref(ObservationVersionShape), { description: 'Every version, oldest first' }),
  }),
);
export type ObservationJson = Static<typeof ObservationShape>;

export const CriticalAlertShape = component(
  'LabCriticalAlert',
  object({
    id: id(),
    observation_id: id(),
    version: integer({ minimum: 1 }),
    raised_at: dateTime(),
    escalates_at: dateTime('When the department may acknowledge it too'),
    acknowledged_at: nullable(dateTime()),
    acknowledged_by: nullable(string()),
  }),
);

export const LabReportShape = component(
  'LabReport',
  object({
    id: id(),
    status: oneOfValues(REPORT_STATUSES),
    signed_off_at: nullable(dateTime()),
    released_at: nullable(dateTime('When a doctor released it to the patient')),
    visible_to_patient: boolean({ description: 'Released by a doctor, or automatically (RESULTS_AUTO_RELEASE_DAYS)' }),
    reviews: array(object({ doctor: string(), reviewed_at: dateTime(), comment: string() })),
    critical_alerts: array(ref(CriticalAlertShape)),
  }),
);

export const LabOrderShape = component(
  'LabOrder',
  object({
    id: id(),
    order_number: string({ description: 'Kept whole, leading zeros and all' }),
    patient: ref(NamedShape),
    doctor: ref(NamedShape),
    appointment_id: nullable(id()),
    admission_id: nullable(id()),
    priority: oneOfValues(PRIORITIES),
    status: oneOfValues(ORDER_STATUSES),
    note: string(),
    ordered_at: dateTime(),
    report: ref(LabReportShape),
    items: array(
      object({
        id: id(),
        test_id: id(),
        code: string(),
        name: string(),
        specimen_type: oneOfValues(SPECIMEN_TYPES),
        status: oneOfValues(ITEM_STATUSES),
        specimen_code: nullable(string()),
        collected_at: nullable(dateTime()),
        result: nullable(ref(ObservationShape)),
      }),
    ),
  }),
);
export type LabOrderJson = Static<typeof LabOrderShape>;

export const ReviewEntryShape = component(
  'LabResultToReview',
  object({
    rank: oneOfValues(['critical', 'abnormal', 'normal'] as const, 'Critical first, then abnormal'),
    order: ref(LabOrderShape),
  }),
);
export type ReviewEntryJson = Static<typeof ReviewEntryShape>;

export const WorkOrderShape = component(
  'LabWorkOrder',
  object({
    id: id(),
    order_number: string(),
    patient: object({
      id: id(),
      name: string(),
      sex: nullable(string()),
      birth_date: nullable(date()),
    }),
    doctor: string(),
    priority: oneOfValues(PRIORITIES),
    status: oneOfValues(ORDER_STATUSES),
    ordered_at: dateTime(),
    report_status: oneOfValues(REPORT_STATUSES),
    items: array(
      object({
        id: id(),
        code: string(),
        name: string(),
        specimen_type: oneOfValues(SPECIMEN_TYPES),
        result_type: oneOfValues(RESULT_TYPES),
        unit: nullable(string()),
        status: oneOfValues(ITEM_STATUSES),
        specimen_code: nullable(string()),
        result: nullable(
          object({
            observation_id: id(),
            version: integer({ minimum: 1 }),
            ...valueFields,
            interpretation: nullable(oneOfValues(INTERPRETATIONS)),
          }),
        ),
      }),
    ),
  }),
);
export type WorkOrderJson = Static<typeof WorkOrderShape>;

export const OrderCostShape = component(
  'LabOrderCost',
  object({
    id: id(),
    order_number: string(),
    patient_id: id(),
    doctor: string(),
    ordered_at: dateTime(),
    cancelled: boolean(),
    tests: array(object({ name: string(), price: string(), voided: boolean() })),
    total: string({ description: 'What is billed and not voided, in dollars' }),
  }),
);
export type OrderCostJson = Static<typeof OrderCostShape>;

export const MyResultShape = component(
  'MyLabResult',
  object({
    id: id(),
    order_number: string(),
    name: string(),
    ...valueFields,
    code: string({ description: "The test's code (LOINC where it has one): a trend's values share it" }),
    interpretation: nullable(string({ description: 'In plain words' })),
    flag: nullable(oneOfValues(INTERPRETATIONS, 'The interpretation as a code: N, L, H, LL, HH')),
    range: string({ description: 'The usual range in plain words' }),
    reference: nullable(object({ low: nullable(number()), high: nullable(number()) })),
    effective_at: dateTime(),
    corrected: boolean({ description: 'Whether the value was corrected after the lab signed it off' }),
    history: array(object({ ...valueFields, recorded_at: dateTime(), reason: nullable(string()) }), {
      description:
        'The value as released and each correction since, oldest first; empty when it was not corrected after release',
    }),
  }),
);
export type MyResultJson = Static<typeof MyResultShape>;

export const StandingAlertShape = component(
  'LabStandingAlert',
  object({
    id: id(),
    order_id: id(),
    order_number: string(),
    patient: ref(NamedShape),
    test: string(),
    ...valueFields,
    interpretation: nullable(oneOfValues(INTERPRETATIONS)),
    raised_at: dateTime(),
    escalates_at: dateTime('When the department’s doctors may acknowledge it too, and are e-mailed'),
    escalated: boolean({ description: 'Whether it has gone unacknowledged past escalates_at' }),
    ordering_doctor: ref(NamedShape),
    yours: boolean({ description: 'Whether the signed-in doctor ordered it' }),
    bed: nullable(string({ description: 'Where the patient lies when in a bed (the bed board marks it too)' })),
  }),
);
export type StandingAlertJson = Static<typeof StandingAlertShape>;

export const UnmatchedResultShape = component(
  'LabUnmatchedResult',
  object({
    id: id(),
    source: string(),
    message_id: string(),
    order_number: string(),
    code_system: oneOfValues(CODE_SYSTEMS),
    code: string(),
    ...valueFields,
    effective_at: dateTime(),
    received_at: dateTime(),
    status: oneOfValues(['pending', 'attached', 'rejected'] as const),
  }),
);
export type UnmatchedResultJson = Static<typeof UnmatchedResultShape>;

export const PlacedOrderShape = object({ id: id(), order_number: string(), bill_ids: array(id()) });
export const ResultEnteredShape = object({
  observation_id: id(),
  version: integer({ minimum: 1 }),
  interpretation: nullable(oneOfValues(INTERPRETATIONS)),
});
export const AcknowledgedShape = object({ acknowledged: boolean({ description: 'False when it already was' }) });
