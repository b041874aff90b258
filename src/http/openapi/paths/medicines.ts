import type { ModulePaths } from '../module-paths.ts';
import {
  AllergiesShape,
  AllergyRequestShape,
  AllergyShape,
  AllergyStatusRequestShape,
  AsNeededDoseRequestShape,
  DiscontinueRequestShape,
  DiscontinuedShape,
  DoseRecordRequestShape,
  DoseShape,
  FormularyEntryShape,
  FormularyQuery,
  FormularyRequestShape,
  MarQuery,
  MedicationOrderShape,
  MedicationRequestShape,
  OrderWithDosesShape,
  PatientMedicinesQuery,
  PrintoutShape,
  WardMarShape,
} from '../../../domain/medicines/medicines-shapes.ts';
import { listOf, ref } from '../../../domain/shared/wire-schema.ts';

/** The operations of src/http/routes/medicines.ts. */
export const medicinePaths: ModulePaths = {
  tag: 'Medicines',
  description:
    'The formulary (generic medicines with their form, strength, routes, UCUM dose unit and price), patients’ allergies ("no known ' +
    'allergies" is a statement of its own, distinct from nothing recorded), prescriptions at a visit and inpatient medication orders. ' +
    'Prescribing a medicine the patient is recorded allergic to is a 409 `allergy_conflict` naming the allergy unless a reason is given; ' +
    'the override is kept on the order and audited. An inpatient order schedules its doses in the clinic’s time zone (every N hours is ' +
    'elapsed time; given times are wall-clock times); each dose is recorded once as given, held, refused or missed on the ward’s ' +
    'medication administration record (MAR). With BILL_MEDICINES on, a dose given adds a bill line at the formulary price.',
  schemas: {
    FormularyMedicine: FormularyEntryShape,
    Allergy: AllergyShape,
    PatientAllergies: AllergiesShape,
    MedicationDose: DoseShape,
    MedicationOrder: MedicationOrderShape,
    MedicationOrderWithDoses: OrderWithDosesShape,
    PrescriptionPrintout: PrintoutShape,
    WardMar: WardMarShape,
  },
  operations: {
    'GET /api/formulary': {
      summary: 'The formulary',
      description:
        'Doctors, nurses and admins: medicines listed for prescribing, searched (`q`) by generic name; admins may ask for inactive ones too.',
      access: ['admin', 'doctor', 'nurse'],
      query: FormularyQuery,
      answers: { 200: listOf('medicines', ref(FormularyEntryShape)) },
    },
    'POST /api/admin/formulary': {
      summary: 'Add a medicine',
      description:
        'Admins only. An unknown route or a dose unit UCUM does not know → 422 naming the field; a medicine of the same generic name, form ' +
        'and strength → 409 `medicine_exists`.',
      access: 'admin',
      body: FormularyRequestShape,
      answers: { 201: ref(FormularyEntryShape) },
      errors: [409],
    },
    'PUT /api/admin/formulary/{id}': {
      summary: 'Change a medicine',
      description:
        'Admins only: every field, and whether it may be prescribed (`active`). Orders written keep their medicine.',
      access: 'admin',
      body: FormularyRequestShape,
      answers: { 200: ref(FormularyEntryShape) },
      errors: [404, 409],
    },
    'GET /api/patients/{id}/allergies': {
      summary: 'A patient’s allergies',
      description:
        'The patient’s care team (outside it → 404), the nurses of the ward the patient lies on, and admins; each read is audited. `statement` is what the banner shows: `not_asked`, ' +
        '`none_known` or `allergies`.',
      access: ['admin', 'doctor', 'nurse'],
      answers: { 200: ref(AllergiesShape) },
      errors: [404],
    },
    'POST /api/patients/{id}/allergies': {
      summary: 'Record an allergy',
      description:
        'The care team and the ward’s nurses: a formulary medicine (`medicine_id`), words (`substance`) or `no_known_allergies`. An allergy retires a standing ' +
        '"no known allergies"; that statement beside an active allergy → 409 `allergies_recorded`.',
      access: ['doctor', 'nurse'],
      body: AllergyRequestShape,
      answers: { 201: ref(AllergyShape) },
      errors: [404, 409],
    },
    'PUT /api/allergies/{id}/status': {
      summary: 'Change an allergy’s status',
      description: 'The care team and the ward’s nurses: active, inactive, resolved or entered in error; audited.',
      access: ['doctor', 'nurse'],
      body: AllergyStatusRequestShape,
      answers: { 200: ref(AllergyShape) },
      errors: [404, 409],
    },
    'POST /api/medication-orders': {
      summary: 'Prescribe, or order a medicine on the ward',
      description:
        'Doctors of the patient’s care team, at a visit (`appointment_id`: a prescription, with a duration or a quantity) or for a stay ' +
        '(`admission_id`: an inpatient order with a duration of at most 30 days, its doses scheduled). An unknown unit or route → 422; a ' +
        'recorded allergy → 409 `allergy_conflict` naming it, unless `allergy_override_reason` is given.',
      access: 'doctor',
      body: MedicationRequestShape,
      answers: { 201: ref(MedicationOrderShape) },
      errors: [404, 409],
    },
    'GET /api/medication-orders/{id}': {
      summary: 'An order and its doses',
      description:
        'The care team and the ward’s nurses (audited), admins, or the patient it is for. The patient does not see an allergy override’s reason.',
      access: ['admin', 'doctor', 'nurse', 'patient'],
      answers: { 200: ref(OrderWithDosesShape) },
      errors: [404],
    },
    'GET /api/medication-orders/{id}/printout': {
      summary: 'A printable prescription',
      description:
        'The clinic’s letterhead, the prescriber, the date and the order, for the care team or the patient; the script carries no allergy override (`allergy_override` is null).',
      access: ['doctor', 'patient'],
      answers: { 200: ref(PrintoutShape) },
      errors: [404],
    },
    'POST /api/medication-orders/{id}/discontinue': {
      summary: 'Discontinue an order',
      description:
        'The care team, with a reason: its doses still due after now are cancelled in the same transaction; recording a dose of it afterwards → ' +
        '409 `order_discontinued`.',
      access: 'doctor',
      body: DiscontinueRequestShape,
      answers: { 200: DiscontinuedShape },
      errors: [404, 409],
    },
    'POST /api/medication-orders/{id}/doses': {
      summary: 'Give an as-needed dose',
      description:
        'Nurses of the ward and the care team. An inpatient order given as needed: a dose inside the minimum interval → 409 `min_interval`, past the maximum in 24 hours → 409 ' +
        '`daily_maximum`.',
      access: ['doctor', 'nurse'],
      body: AsNeededDoseRequestShape,
      answers: { 201: ref(DoseShape) },
      errors: [404, 409],
    },
    'POST /api/medication-doses/{id}/record': {
      summary: 'Record a scheduled dose',
      description:
        'Nurses of the ward and the care team. Given (the dose, and a time not in the future), held, refused or missed (each with a reason). Recorded exactly once: a dose already ' +
        'recorded → 409 `dose_already_recorded`; a dose of a discontinued order → 409 `order_discontinued`.',
      access: ['doctor', 'nurse'],
      body: DoseRecordRequestShape,
      answers: { 200: ref(DoseShape) },
      errors: [404, 409],
    },
    'GET /api/patients/{id}/medicines': {
      summary: 'A patient’s medicines',
      description:
        'The care team, the ward’s nurses and admins: active medicines (the default) or all (`status=all`), newest first.',
      access: ['admin', 'doctor', 'nurse'],
      query: PatientMedicinesQuery,
      answers: { 200: listOf('orders', ref(MedicationOrderShape)) },
      errors: [404],
    },
    'GET /api/patient/prescriptions': {
      summary: 'My prescriptions',
      description:
        'The patient’s own prescriptions and medicines, newest first (`status=active` for current ones); an allergy override is the clinician’s note and is not shown (`allergy_override` is null).',
      access: 'patient',
      query: PatientMedicinesQuery,
      answers: { 200: listOf('orders', ref(MedicationOrderShape)) },
    },
    'GET /api/wards/{id}/mar': {
      summary: 'The ward’s medication administration record',
      description:
        'The patients in the ward’s beds (those of the doctor’s care team; a nurse reads their own ward only, another → 404) with their inpatient orders and the doses of one clinic day ' +
        '(`date`, today by default) and any still due from before; a dose still due more than 60 minutes after its time is `late`.',
      access: ['doctor', 'nurse'],
      query: MarQuery,
      answers: { 200: ref(WardMarShape) },
      errors: [404],
    },
  },
};
