import { PAYMENT_STATUSES } from '../billing/billing.ts';
import { MAX_AMOUNT_CENTS } from '../shared/money.ts';
import { PageQuery } from '../shared/pagination.ts';
import { GenderShape, MoneyShape, NamedShape } from '../shared/shared-shapes.ts';
import {
  amount,
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
  refusedAs,
  string,
  text,
  type Static,
} from '../shared/wire-schema.ts';
import {
  ADMISSION_GROUPS,
  ADMISSION_STATUSES,
  BED_STATES,
  BLOCK_KINDS,
  type AdmissionGroup,
  type BedState,
} from './inpatient.ts';

// Inpatient care's requests and answers, written once (docs/architecture.md "The wire contract").

export const MAX_EXPECTED_NIGHTS = 365;
export const MAX_CLINICAL_TEXT = 5000;

const named = ref(NamedShape);
const count = () => integer({ minimum: 0 });
const cents = () => integer({ minimum: 0 });
const money = ref(MoneyShape);

// Requests

export const BedLabelRequest = object({ label: text(40, { rule: 'line' }) });

export const RoomClassRequest = object({
  bed_class: text(60, { rule: 'line' }),
  nightly_rate: refusedAs(
    amount(MAX_AMOUNT_CENTS, { zero: true, description: 'Dollars, at most two decimals' }),
    `must be an amount from 0 to ${MAX_AMOUNT_CENTS / 100} with at most two decimals`,
  ),
});

export const BlockBedRequest = object({ kind: oneOfValues(BLOCK_KINDS), reason: text(500) });

export const WardQuery = queryOf({ department_id: id('One ward only') });

export const AdmissionRequestShape = object(
  {
    patient_id: id(),
    department_id: id(),
    appointment_id: id(),
    expected_nights: refusedAs(
      integer({ minimum: 1, maximum: MAX_EXPECTED_NIGHTS }),
      `must be a whole number of nights from 1 to ${MAX_EXPECTED_NIGHTS}`,
    ),
    reason: text(MAX_CLINICAL_TEXT),
  },
  { optional: ['appointment_id'] },
);

export const AdmissionsQuery = queryOf({
  ...propertiesOf(PageQuery),
  status: oneOfValues(Object.keys(ADMISSION_GROUPS) as AdmissionGroup[]),
  department_id: id('One ward only'),
});

export const BedChoiceRequest = object({ bed_id: id() });

export const AdmitRequest = object({ bed_id: id() }, { optional: ['bed_id'] });

export const DischargeOrderRequest = object(
  {
    diagnosis: text(MAX_CLINICAL_TEXT),
    treatment: text(MAX_CLINICAL_TEXT),
    medication: text(MAX_CLINICAL_TEXT, { min: 0 }),
    instructions: text(MAX_CLINICAL_TEXT, { min: 0 }),
    follow_up: text(MAX_CLINICAL_TEXT, { min: 0 }),
  },
  { optional: ['medication', 'instructions', 'follow_up'] },
);

export const CensusQuery = queryOf({
  from: date('First day (default: the first of this month)'),
  to: date('Last day (default: today); at most 366 days after from'),
  department_id: id('One ward only'),
});

// Answers

export const BedShape = component(
  'Bed',
  object({
    id: id(),
    label: string(),
    room: named,
    ward: named,
    state: oneOfValues(BED_STATES),
    since: dateTime('Since when the bed is in this state (for a held bed: since the holder took it)'),
    blocked: nullable(
      object({ kind: oneOfValues(BLOCK_KINDS), reason: nullable(string({ description: 'null for reception' })) }),
    ),
    occupant: nullable(
      object({
        admission_id: id(),
        patient: named,
        age: nullable(
          integer({ minimum: 0, description: 'The patient’s age in whole years; null when no birth date' }),
        ),
        sex: nullable(ref(GenderShape)),
        doctor: named,
        expected_nights: integer({ minimum: 1 }),
        since: dateTime(),
        critical_results: nullable(
          integer({
            minimum: 0,
            description: 'The patient’s critical lab results not yet acknowledged; null for reception',
          }),
        ),
        late_doses: integer({
          minimum: 0,
          description: 'Medication doses overdue by more than 60 minutes (0 for reception)',
        }),
      }),
    ),
    retired: boolean(),
  }),
);
export type BedJson = Static<typeof BedShape>;

/** NEWS2's clinical risks (RCP 2017), as the vitals module grades a set. */
export const NEWS2_RISKS = ['low', 'low-medium', 'medium', 'high'] as const;

/** A bed as the board shows it: with its latest NEWS2 for clinical staff (reception never sees a score). */
export const BoardBedShape = component(
  'BoardBed',
  object(
    {
      ...propertiesOf(BedShape),
      news2: nullable(
        object({
          total: integer({ minimum: 0, maximum: 20 }),
          risk: oneOfValues(NEWS2_RISKS),
          taken_at: dateTime('When the latest scored set was taken'),
          next_due_at: dateTime('When the next set is due, by the score’s frequency'),
          overdue: boolean(),
          alert: boolean({ description: 'Medium or high: an alert stands for the bed' }),
        }),
      ),
    },
    { optional: ['news2'] },
  ),
);

export const StayChargeShape = component(
  'StayCharge',
  object({
    billing_id: id(),
    kind: oneOfValues(['interim', 'final'] as const),
    first_night: date(),
    last_night: date(),
    payment_status: oneOfValues(PAYMENT_STATUSES),
    amount: money,
    amount_cents: cents(),
    lines: array(
      object({
        bed_id: id(),
        bed: string(),
        room: string(),
        first_night: date(),
        last_night: date(),
        nights: integer({ minimum: 1 }),
        nightly_rate: money,
        nightly_rate_cents: cents(),
        amount: money,
        amount_cents: cents(),
      }),
    ),
  }),
);
export type StayChargeJson = Static<typeof StayChargeShape>;

const summaryFields = {
  doctor: named,
  diagnosis: string(),
  treatment: string(),
  medication: string(),
  instructions: string(),
  follow_up: string(),
  written_at: dateTime(),
};

export const DischargeSummaryShape = component('DischargeSummary', object(summaryFields));
export type DischargeSummaryJson = Static<typeof DischargeSummaryShape>;

const admissionFields = {
  id: id(),
  status: oneOfValues(ADMISSION_STATUSES),
  patient: named,
  ward: named,
  requested_by: named,
  appointment_id: nullable(id()),
  expected_nights: integer({ minimum: 1, maximum: MAX_EXPECTED_NIGHTS }),
  bed: nullable(object({ id: id(), label: string(), room: named })),
  requested_at: dateTime(),
  reserved_at: nullable(dateTime()),
  admitted_at: nullable(dateTime()),
  discharge_ordered_at: nullable(dateTime()),
  discharged_at: nullable(dateTime()),
  cancelled_at: nullable(dateTime()),
  reason: string({ description: 'The clinical reason; never answered to reception' }),
};

export const AdmissionShape = component('Admission', object(admissionFields, { optional: ['reason'] }));
export type AdmissionJson = Static<typeof AdmissionShape>;

export const AdmissionDetailShape = component(
  'AdmissionDetail',
  object(
    {
      ...admissionFields,
      locations: array(
        object({
          bed_id: id(),
          bed: string(),
          room: named,
          ward: named,
          nightly_rate: money,
          nightly_rate_cents: cents(),
          from: dateTime(),
          to: nullable(dateTime()),
        }),
      ),
      charges: array(ref(StayChargeShape)),
      discharge_summary: nullable(ref(DischargeSummaryShape)),
    },
    { optional: ['reason', 'discharge_summary'] },
  ),
);
export type AdmissionDetailJson = Static<typeof AdmissionDetailShape>;

export const RoomClassShape = object({
  room_id: id(),
  bed_class: string(),
  nightly_rate: money,
  nightly_rate_cents: cents(),
});
export type RoomClassJson = Static<typeof RoomClassShape>;

const stateCounts = object(
  Object.fromEntries(BED_STATES.map((state) => [state, count()])) as Record<BedState, ReturnType<typeof count>>,
);
const occupancy = {
  counts: stateCounts,
  beds: count(),
  occupancy_percent: nullable(
    number({
      minimum: 0,
      maximum: 100,
      description: 'Occupied beds out of the beds in service, in percent, to one decimal; null without beds',
    }),
  ),
};

export const BedBoardShape = object({
  wards: array(
    object({
      id: id(),
      name: string(),
      rooms: array(
        object({
          id: id(),
          name: string(),
          bed_class: nullable(string()),
          nightly_rate: nullable(money),
          nightly_rate_cents: nullable(cents()),
          beds: array(ref(BoardBedShape)),
        }),
      ),
      ...occupancy,
    }),
  ),
  ...occupancy,
});
export type BedBoardJson = Static<typeof BedBoardShape>;
export type WardJson = BedBoardJson['wards'][number];
export type BoardRoomJson = WardJson['rooms'][number];

/** The discharge summary to print: the stay's names and dates with what the doctor wrote. */
export const PrintedSummaryShape = object({
  admission_id: id(),
  patient: named,
  patient_birth_date: nullable(date('As the printed summary shows it; null when not given')),
  ward: named,
  admitted_at: nullable(dateTime()),
  discharged_at: nullable(dateTime()),
  ...summaryFields,
  medicines_to_continue: array(
    object({ order_id: id(), medicine: string(), words: string({ description: 'As the prescription reads' }) }),
    { description: 'The ward’s medicine orders marked to continue after discharge and not discontinued' },
  ),
});
export type PrintedSummaryJson = Static<typeof PrintedSummaryShape>;

export const MyStaysShape = object({ admissions: array(ref(AdmissionDetailShape)) });

export const InterimBillsShape = object({ bills: count() });

const censusFigures = {
  department_id: id(),
  department: string(),
  admissions: count(),
  discharges: count(),
  transfers: count(),
  occupancy_percent: nullable(number({ minimum: 0 })),
};

export const CensusDayShape = object({
  date: date(),
  beds: count(),
  in_bed_at_midnight: count(),
  ...censusFigures,
});
export type CensusDay = Static<typeof CensusDayShape>;

export const CensusWardTotalShape = object({
  patient_nights: count(),
  bed_nights: count(),
  average_length_of_stay: nullable(
    number({ minimum: 0, description: 'Nights per stay discharged in the period, over the whole stay' }),
  ),
  ...censusFigures,
});
export type CensusWardTotal = Static<typeof CensusWardTotalShape>;

export const CensusShape = object({
  from: date(),
  to: date(),
  time_zone: string(),
  days: array(CensusDayShape),
  wards: array(CensusWardTotalShape),
});
export type Census = Static<typeof CensusShape>;
