import type { ModulePaths } from '../module-paths.ts';
import {
  AcknowledgedShape,
  AttachRequestShape,
  CollectRequestShape,
  CorrectionRequestShape,
  CriticalAlertShape,
  LabOrderShape,
  LabReportShape,
  LabTestRequestShape,
  LabTestShape,
  LabTestUpdateShape,
  MyResultShape,
  ObservationShape,
  ObservationVersionShape,
  OrderCostShape,
  OrderRequestShape,
  PatientOrdersQuery,
  PlacedOrderShape,
  RejectSpecimenRequestShape,
  RejectUnmatchedRequestShape,
  ResultEnteredShape,
  ResultRequestShape,
  ReviewEntryShape,
  ReviewRequestShape,
  StandingAlertShape,
  UnmatchedResultShape,
  WorkOrderShape,
  WorklistQuery,
} from '../../../domain/lab/lab-shapes.ts';
import { array, listOf, object, ref } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

const pageOnly = { page: pageQuery.page, per_page: pageQuery.per_page };

/** The operations of src/http/routes/lab.ts. */
export const labPaths: ModulePaths = {
  tag: 'Lab',
  description:
    'Lab and imaging orders and results. A doctor orders tests from a visit or a stay of a patient in their care team (each test as ordered is ' +
    'billed in the same transaction); the lab collects specimens, enters results (quantities in UCUM, converted to the test’s unit and ' +
    'interpreted for the patient’s sex and age) and signs the report off; a correction is a new version, never an overwrite. Critical values ' +
    'are acknowledged by the ordering doctor, or after 30 minutes by a doctor of the department. The patient sees a report once it is released: ' +
    'by the doctor, or automatically RESULTS_AUTO_RELEASE_DAYS after sign-off (default never). The lab sees no clinical note, diagnosis or bill; ' +
    'reception sees that an order exists and what it costs, never a result.',
  schemas: {
    LabTest: LabTestShape,
    LabObservationVersion: ObservationVersionShape,
    LabObservation: ObservationShape,
    LabCriticalAlert: CriticalAlertShape,
    LabReport: LabReportShape,
    LabOrder: LabOrderShape,
    LabResultToReview: ReviewEntryShape,
    LabStandingAlert: StandingAlertShape,
    LabWorkOrder: WorkOrderShape,
    LabOrderCost: OrderCostShape,
    MyLabResult: MyResultShape,
    LabUnmatchedResult: UnmatchedResultShape,
  },
  operations: {
    'GET /api/lab/tests': {
      summary: 'The test catalogue',
      description:
        'Doctors and admins: orderable tests and panels (inactive ones too, marked), searched (`q`) by name or code.',
      access: ['admin', 'doctor'],
      query: pageQuery,
      answers: { 200: listOf('tests', ref(LabTestShape)) },
    },
    'POST /api/admin/lab/tests': {
      summary: 'Add a test',
      description:
        'Admins only: a quantity (with its UCUM unit, 422 naming `unit` when UCUM does not know it) or a text report, with adult limits for ' +
        'anyone. A code the catalogue already has → 409 `code_taken`.',
      access: 'admin',
      body: LabTestRequestShape,
      answers: { 201: ref(LabTestShape) },
      errors: [409],
    },
    'PUT /api/admin/lab/tests/{id}': {
      summary: 'Change a test',
      description:
        'Admins only: its name, price, turnaround and whether it can be ordered; and, for a quantity, its physical limits, reference ' +
        'ranges and critical limits by sex and age band (each list given replaces the one it had; one left out stays). Two bands of one ' +
        'sex overlapping in age, a band with no end or its ends out of order → 422 naming the band (`ranges[1].high`); limits for a test ' +
        'not answered by a quantity → 422. Each change is a new version of the test (a stale `row_version` → 409 `test_changed`), ' +
        'audited with the limits before and after. Orders placed keep what they were billed; results already read keep the ' +
        'interpretation and range they were given.',
      access: 'admin',
      body: LabTestUpdateShape,
      answers: { 200: ref(LabTestShape) },
      errors: [409],
    },
    'POST /api/lab/orders': {
      summary: 'Order tests',
      description:
        'Doctors only, for a visit (`appointment_id`) or a stay (`admission_id`) of a patient in their care team (outside it → 404). Panels ' +
        'order their member tests; each test as ordered adds a bill at its catalogue price in the same transaction. The order number is a string.',
      access: 'doctor',
      body: OrderRequestShape,
      answers: { 201: PlacedOrderShape },
      errors: [404],
    },
    'GET /api/lab/orders/{id}': {
      summary: 'An order and its results',
      description:
        'The ordering doctor, or a doctor of the patient’s care team (outside it → 404): the tests, specimens, results with every version, the ' +
        'report, its reviews and critical alerts.',
      access: 'doctor',
      answers: { 200: ref(LabOrderShape) },
    },
    'POST /api/lab/orders/{id}/cancel': {
      summary: 'Cancel an order',
      description:
        'The ordering doctor, before anything was collected (then 409 `order_collected`): its bills are credited in full.',
      access: 'doctor',
      answers: { 200: ref(LabOrderShape) },
      errors: [409],
    },
    'POST /api/lab/orders/{id}/review': {
      summary: 'Mark results reviewed',
      description: 'The ordering doctor, once the report is signed off (before: 409), with an optional comment.',
      access: 'doctor',
      body: ReviewRequestShape,
      answers: { 200: ref(LabOrderShape) },
      errors: [409],
    },
    'POST /api/lab/orders/{id}/release': {
      summary: 'Release results to the patient',
      description:
        'The ordering doctor, once the report is signed off (before: 409). Releasing twice is one release. The patient sees each value as it ' +
        'stands when they read it, so never a value corrected before the release.',
      access: 'doctor',
      answers: { 200: ref(LabOrderShape) },
      errors: [409],
    },
    'POST /api/lab/alerts/{id}/acknowledge': {
      summary: 'Acknowledge a critical result',
      description:
        'The ordering doctor, or after 30 minutes a doctor of their department (anyone else → 404). Acknowledging twice, or 20 times at once, ' +
        'is one acknowledgement: `acknowledged` is true for the first only.',
      access: 'doctor',
      answers: { 200: AcknowledgedShape },
    },
    'GET /api/doctor/critical-alerts': {
      summary: 'Critical results standing as alerts',
      description:
        'The signed-in doctor’s day: critical (LL, HH) results not yet acknowledged — of their own orders at once, of their department’s once unacknowledged for 30 minutes — oldest first. Each stands until acknowledged.',
      access: 'doctor',
      answers: { 200: object({ alerts: array(ref(StandingAlertShape)) }) },
    },
    'GET /api/doctor/results-to-review': {
      summary: 'Results to review',
      description:
        'The signed-in doctor’s signed-off reports not yet reviewed: those with a critical value first, then abnormal ones, then the rest.',
      access: 'doctor',
      query: pageOnly,
      answers: { 200: listOf('results', ref(ReviewEntryShape)) },
    },
    'GET /api/doctor/patients/{id}/lab-results': {
      summary: 'A patient’s orders and results',
      description:
        'For a doctor of the patient’s care team (outside it → 404), newest first, with every version of each result.',
      access: 'doctor',
      query: pageOnly,
      answers: { 200: listOf('orders', ref(LabOrderShape)) },
    },
    'GET /api/patient/lab-results': {
      summary: 'My results',
      description:
        'The signed-in patient’s released results only, newest order first, each as it stands now with its range and reading in plain words.',
      access: 'patient',
      query: pageOnly,
      answers: { 200: listOf('results', ref(MyResultShape)) },
    },
    'GET /api/desk/lab-orders': {
      summary: 'A patient’s lab orders and their cost',
      description:
        'Reception and admins: that each order exists and what it costs (voided lines marked), never a result.',
      access: ['reception', 'admin'],
      query: PatientOrdersQuery,
      answers: { 200: listOf('orders', ref(OrderCostShape)) },
    },
    'GET /api/lab/worklist': {
      summary: 'The lab’s worklist',
      description:
        'The lab: orders waiting for collection or results, stat first then oldest; or (`order_number`) one order whatever its status. No ' +
        'clinical note, diagnosis or bill.',
      access: 'lab',
      query: WorklistQuery,
      answers: { 200: listOf('orders', ref(WorkOrderShape)) },
    },
    'POST /api/lab/items/{id}/collect': {
      summary: 'Collect a specimen',
      description:
        'The lab records the specimen of one test ordered, once (again → 409 `already_collected`; a cancelled order → 409).',
      access: 'lab',
      body: CollectRequestShape,
      answers: { 200: ref(WorkOrderShape) },
      errors: [409],
    },
    'POST /api/lab/items/{id}/reject': {
      summary: 'Reject a specimen',
      description: 'The lab rejects a collected specimen with a reason, so the test can be collected again.',
      access: 'lab',
      body: RejectSpecimenRequestShape,
      answers: { 200: ref(WorkOrderShape) },
      errors: [409],
    },
    'POST /api/lab/items/{id}/result': {
      summary: 'Enter a result',
      description:
        'The lab: a quantity with its UCUM unit (unknown or not convertible to the test’s → 422 naming `unit`; outside what can be measured → ' +
        '422 naming `value`), a coded answer, or text. A cancelled order → 409 `order_cancelled`; a test already resulted → 409.',
      access: 'lab',
      body: ResultRequestShape,
      answers: { 201: ResultEnteredShape },
      errors: [409],
    },
    'POST /api/lab/orders/{id}/finalize': {
      summary: 'Sign the report off',
      description:
        'The lab: preliminary → final, once (a second sign-off, even at the same moment, → 409 `report_status`); each critical value raises an ' +
        'alert for the ordering doctor.',
      access: 'lab',
      answers: { 200: ref(WorkOrderShape) },
      errors: [409],
    },
    'POST /api/lab/results/{id}/correct': {
      summary: 'Correct a result',
      description:
        'The lab: a new version of the result naming the `version` it corrects (stale → 409 `result_changed`) and why. The earlier versions, ' +
        'who entered them and when stay in its history; after sign-off the report becomes corrected.',
      access: 'lab',
      body: CorrectionRequestShape,
      answers: { 200: ResultEnteredShape },
      errors: [409],
    },
    'GET /api/lab/unmatched': {
      summary: 'Unmatched results',
      description:
        'The lab and admins: results from outside that matched no order number, oldest first, waiting to be attached or rejected.',
      access: ['lab', 'admin'],
      query: pageOnly,
      answers: { 200: listOf('results', ref(UnmatchedResultShape)) },
    },
    'POST /api/lab/unmatched/{id}/attach': {
      summary: 'Attach an unmatched result',
      description:
        'The lab (or an admin) names the order (`order_number`) it belongs to; it becomes the result of that order’s test of the same code (no such test → ' +
        '422 naming `order_number`).',
      access: ['lab', 'admin'],
      body: AttachRequestShape,
      answers: { 201: ResultEnteredShape },
      errors: [409],
    },
    'POST /api/lab/unmatched/{id}/reject': {
      summary: 'Reject an unmatched result',
      description: 'The lab (or an admin) sets it aside with a note; it leaves the list.',
      access: ['lab', 'admin'],
      body: RejectUnmatchedRequestShape,
      answers: { 204: null },
    },
  },
};
