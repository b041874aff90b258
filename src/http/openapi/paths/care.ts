import type { ModulePaths } from '../module-paths.ts';
import { BreakGlassAccessShape, BreakGlassRequestShape, RecordOpeningShape } from '../../../domain/care/care-shapes.ts';
import { listOf, object, ref } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

/** The operations of src/http/routes/care.ts. */
export const carePaths: ModulePaths = {
  tag: 'Care team',
  description:
    "A doctor reads and writes a patient's clinical data (medical records, hospital stays' reasons and discharge summaries, FHIR) only while in " +
    "the patient's care team: a visit or an order for them, the admitting or attending doctor of a stay, a doctor of the ward's department while " +
    'the patient is in it. Outside it, every clinical read and write of that patient answers 404, as for what does not exist, unless the doctor ' +
    "breaks the glass: states a reason and holds the record open for the rest of the clinic's day. Every access outside the care team is listed " +
    'for admins, and a patient sees every clinical read of their record by staff.',
  schemas: {
    BreakGlassAccess: BreakGlassAccessShape,
    RecordOpening: RecordOpeningShape,
  },
  operations: {
    'POST /api/doctor/patients/{id}/break-glass': {
      summary: 'Break the glass',
      description:
        "Doctors only. Opens patient `id`'s record to this doctor outside their care team until the end of the clinic's day, with the reason " +
        'given (required; 422 naming `reason`). The access and its audit row are written in one transaction; the reason is shown to admins and to ' +
        'the patient. An unknown patient → 404.',
      access: 'doctor',
      body: BreakGlassRequestShape,
      answers: { 201: object({ access: ref(BreakGlassAccessShape) }) },
    },
    'GET /api/admin/break-glass': {
      summary: 'Access outside the care team',
      description:
        'Admins only: every break-the-glass access, newest first, searched (`q`) by doctor or patient name. Reading it is audited.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('accesses', ref(BreakGlassAccessShape)) },
    },
    'GET /api/patient/record-openings': {
      summary: 'Who opened my record',
      description:
        "The signed-in patient's record as staff opened it, newest first: every clinical read by a doctor or an admin (who, role, when, what) and " +
        'every break-the-glass access, with its reason.',
      access: 'patient',
      query: { page: pageQuery.page, per_page: pageQuery.per_page },
      answers: { 200: listOf('openings', ref(RecordOpeningShape)) },
    },
  },
};
