import type { ModulePaths } from '../module-paths.ts';
import {
  AdmissionDetailShape,
  AdmissionRequestShape,
  AdmissionShape,
  AdmissionsQuery,
  AdmitRequest,
  BedBoardShape,
  BedChoiceRequest,
  BedLabelRequest,
  BedShape,
  BoardBedShape,
  BlockBedRequest,
  CensusQuery,
  CensusShape,
  DischargeOrderRequest,
  DischargeSummaryShape,
  InterimBillsShape,
  MyStaysShape,
  PrintedSummaryShape,
  RoomClassRequest,
  RoomClassShape,
  StayChargeShape,
  WardQuery,
} from '../../../domain/inpatient/inpatient-shapes.ts';
import { listOf, ref, string } from '../../../domain/shared/wire-schema.ts';

const admissionAnswer = { 200: ref(AdmissionDetailShape) };
const bedAnswer = { 200: ref(BedShape) };

/** The operations of src/http/routes/inpatient.ts. */
export const inpatientPaths: ModulePaths = {
  tag: 'Inpatient',
  description:
    'Beds, admissions and the midnight census. A bed belongs to a room, whose department is its ward. An admission goes requested → (reserved) → admitted → ' +
    'discharge_ordered → discharged, or is cancelled while waiting; each step is one transaction with its audit row. The database keeps one open admission ' +
    'per patient and one patient per bed, so racing desks get 409 `bed_taken` or `already_admitted`. Reception never receives the clinical reason or the ' +
    "discharge summary. A night is counted when the patient is in a bed at midnight in the clinic's zone.",
  schemas: {
    Bed: BedShape,
    BoardBed: BoardBedShape,
    StayCharge: StayChargeShape,
    DischargeSummary: DischargeSummaryShape,
    Admission: AdmissionShape,
    AdmissionDetail: AdmissionDetailShape,
  },
  operations: {
    'POST /api/admin/rooms/{id}/beds': {
      summary: 'Add a bed to a room',
      access: 'admin',
      body: BedLabelRequest,
      answers: { 201: ref(BedShape) },
      errors: [409],
    },
    'PUT /api/admin/rooms/{id}/bed-class': {
      summary: "Set a room's bed class and nightly rate",
      description: 'Stays already in its beds keep the rate they began with.',
      access: 'admin',
      body: RoomClassRequest,
      answers: { 200: RoomClassShape },
    },
    'PUT /api/admin/beds/{id}': {
      summary: 'Rename a bed',
      access: 'admin',
      body: BedLabelRequest,
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/admin/beds/{id}/retire': {
      summary: 'Retire a bed',
      description: 'Refused with 409 `bed_occupied` while anyone holds it.',
      access: 'admin',
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/block': {
      summary: 'Block a free bed for maintenance or isolation',
      access: ['reception', 'admin'],
      body: BlockBedRequest,
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/unblock': {
      summary: 'Put a blocked bed back in service (to be cleaned)',
      access: ['reception', 'admin'],
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/ready': {
      summary: 'Mark a cleaned bed ready',
      access: ['reception', 'admin'],
      answers: bedAnswer,
      errors: [409],
    },
    'GET /api/bed-board': {
      summary: 'The bed board',
      description:
        "Every ward (or one), its rooms and beds with their state and occupant, counts per state and occupancy. A nurse sees their own department's ward only.",
      access: ['doctor', 'nurse', 'reception', 'admin'],
      query: WardQuery,
      answers: { 200: BedBoardShape },
    },
    'POST /api/admissions': {
      summary: 'Request an admission',
      description:
        "A doctor asks for a patient (from their overview or a visit) to be admitted to a ward, and becomes the stay's admitting doctor: only a " +
        "doctor in the patient's care team, or one who broke the glass for them (an emergency admission), may; others get 404. 409 " +
        '`already_admitted` when the patient has an open admission.',
      access: 'doctor',
      body: AdmissionRequestShape,
      answers: { 201: ref(AdmissionDetailShape) },
      errors: [404, 409],
    },
    'GET /api/admissions': {
      summary: 'List admissions',
      description:
        '`status` chooses waiting (default: requested and reserved), current (in a bed), past, or all; `q` searches patient names.',
      access: ['doctor', 'reception', 'admin'],
      query: AdmissionsQuery,
      answers: { 200: listOf('admissions', ref(AdmissionShape)) },
    },
    'GET /api/admissions/{id}': {
      summary: 'An admission with its locations and bills',
      access: ['doctor', 'reception', 'admin'],
      answers: admissionAnswer,
    },
    'POST /api/admissions/{id}/cancel': {
      summary: 'Cancel a waiting request or reservation',
      access: ['doctor', 'reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/reserve': {
      summary: 'Reserve a vacant bed for a waiting admission',
      access: ['reception', 'admin'],
      body: BedChoiceRequest,
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/admit': {
      summary: 'Admit the patient into a vacant bed',
      description:
        '`bed_id` may be left out when a bed is reserved. 409 `bed_taken`, `bed_not_vacant`, `already_admitted`.',
      access: ['reception', 'admin'],
      body: AdmitRequest,
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/undo': {
      summary: 'Undo a mistaken admission or reservation',
      description:
        'The request waits again and the bed is vacant. An admission only within 15 minutes and before any transfer (409 `undo_window_passed`).',
      access: ['reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/transfer': {
      summary: 'Transfer the patient to another bed',
      description:
        'The current bed is left to be cleaned; the location history keeps both. 409 `bed_taken`, `already_discharged`.',
      access: ['reception', 'admin'],
      body: BedChoiceRequest,
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/discharge-order': {
      summary: 'Order the discharge and write its summary',
      access: 'doctor',
      body: DischargeOrderRequest,
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/discharge': {
      summary: 'Confirm the patient has left',
      description:
        'The bed goes to cleaning and the nights not yet billed become one bill with a line per bed, in the same transaction.',
      access: ['reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'GET /api/admissions/{id}/discharge-summary': {
      summary: 'The discharge summary, to print',
      access: ['doctor', 'admin', 'patient'],
      answers: { 200: PrintedSummaryShape },
    },
    'GET /api/patient/admissions': {
      summary: "The patient's own current and past stays",
      access: 'patient',
      answers: { 200: MyStaysShape },
    },
    'POST /api/admin/interim-bills': {
      summary: 'Bill every whole week of long stays not yet billed',
      description: 'Idempotent: a week is billed once however often this runs.',
      access: 'admin',
      answers: { 200: InterimBillsShape },
    },
    'GET /api/admin/census': {
      summary: 'The midnight census per ward and day',
      access: 'admin',
      query: CensusQuery,
      answers: { 200: CensusShape },
    },
    'GET /api/admin/census.csv': {
      summary: 'The midnight census as CSV',
      access: 'admin',
      query: CensusQuery,
      answers: { 200: { content: { 'text/csv': string() } } },
    },
  },
};
