import type { ModulePaths } from '../module-paths.ts';
import {
  BookableDoctorShape,
  DepartmentShape,
  DiseaseShape,
  DoctorDeletionShape,
  DoctorShape,
  DoctorUpdateForm,
  NameAndDescriptionRequest,
  NewDoctorForm,
  RoomRequest,
  SpecializationRequest,
  RoomShape,
  SpecializationShape,
} from '../../../domain/catalogue/catalogue-shapes.ts';
import { pageQuery } from '../components.ts';
import { listOf, ref, string } from '../../../domain/shared/wire-schema.ts';
import { NEXT_FREE_DOCTORS } from '../../../domain/scheduling/booking-use-cases.ts';

const IMAGE = string({ contentEncoding: 'binary' });

/** The operations of src/http/routes/catalogue.ts. */
export const cataloguePaths: ModulePaths = {
  tag: 'Catalogue',
  description:
    "The clinic's reference tables and its doctors. Admins manage departments, specializations, diseases, rooms and doctors under `/api/admin/*`; " +
    'every signed-in user may list and read active doctors (`/api/doctors`), doctors and admins read the diseases. A taken name is 409 `name_taken`, ' +
    'a taken e-mail 409 `email_taken`; a row something still uses is not deleted (409 `in_use`, the message says what uses it). ' +
    'A doctor with appointments from today on is not deleted (409 `doctor_has_appointments`); one with any history is deactivated instead of erased. ' +
    'Photos are uploaded as multipart form data and served by `GET /api/files/{id}`.',
  schemas: {
    Department: DepartmentShape,
    Specialization: SpecializationShape,
    Disease: DiseaseShape,
    Room: RoomShape,
    Doctor: DoctorShape,
    BookableDoctor: BookableDoctorShape,
  },
  operations: {
    'GET /api/files/{id}': {
      summary: 'Get a stored image',
      description:
        "The bytes of a stored photo (a doctor's, a patient's), by the URL an answer gave (`image`, `profile_image`, `photo`). Public and cacheable for a day; " +
        'carries an `ETag`, and `If-None-Match` with it answers 304.',
      access: 'public',
      headers: { 'If-None-Match': string({ description: 'An ETag this image was answered with' }) },
      answers: {
        200: {
          description: 'The image',
          content: { 'image/png': IMAGE, 'image/jpeg': IMAGE, 'image/webp': IMAGE },
          headers: { ETag: string(), 'Cache-Control': string() },
        },
        304: null,
      },
    },
    'GET /api/admin/departments': {
      summary: 'List departments',
      description: 'Admins only. `q` searches name and description; ordered by name.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('departments', ref('Department')) },
    },
    'POST /api/admin/departments': {
      summary: 'Create a department',
      description: 'Admins only; audited. A name another department has → 409 `name_taken`.',
      access: 'admin',
      body: NameAndDescriptionRequest,
      answers: { 201: ref('Department') },
      errors: [409],
    },
    'GET /api/admin/departments/{id}': {
      summary: 'Get a department',
      access: 'admin',
      answers: { 200: ref('Department') },
    },
    'PUT /api/admin/departments/{id}': {
      summary: 'Update a department',
      description:
        'Admins only; audited. Both fields are written (an absent description becomes empty). A taken name → 409 `name_taken`.',
      access: 'admin',
      body: NameAndDescriptionRequest,
      answers: { 200: ref('Department') },
      errors: [409],
    },
    'DELETE /api/admin/departments/{id}': {
      summary: 'Delete a department',
      description:
        'Admins only; audited. Refused with 409 `in_use` while doctors, rooms or appointments belong to it (the message says which).',
      access: 'admin',
      answers: { 204: null },
      errors: [409],
    },
    'GET /api/admin/specializations': {
      summary: 'List specializations',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('specializations', ref('Specialization')) },
    },
    'POST /api/admin/specializations': {
      summary: 'Create a specialization',
      description: 'Admins only; audited. A taken name → 409 `name_taken`.',
      access: 'admin',
      body: SpecializationRequest,
      answers: { 201: ref('Specialization') },
      errors: [409],
    },
    'PUT /api/admin/specializations/{id}': {
      summary: 'Rename a specialization',
      description: 'Admins only; audited. A taken name → 409 `name_taken`.',
      access: 'admin',
      body: SpecializationRequest,
      answers: { 200: ref('Specialization') },
      errors: [409],
    },
    'DELETE /api/admin/specializations/{id}': {
      summary: 'Delete a specialization',
      description: 'Admins only; audited. Refused with 409 `in_use` while a doctor has it.',
      access: 'admin',
      answers: { 204: null },
      errors: [409],
    },
    'GET /api/admin/diseases': {
      summary: 'List diseases (admin)',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('diseases', ref('Disease')) },
    },
    'GET /api/diseases': {
      summary: 'List diseases',
      description: 'For doctors choosing the disease of a visit they record, and for admins.',
      access: ['doctor', 'admin'],
      query: pageQuery,
      answers: { 200: listOf('diseases', ref('Disease')) },
    },
    'POST /api/admin/diseases': {
      summary: 'Create a disease',
      description: 'Admins only; audited. A taken name → 409 `name_taken`.',
      access: 'admin',
      body: NameAndDescriptionRequest,
      answers: { 201: ref('Disease') },
      errors: [409],
    },
    'PUT /api/admin/diseases/{id}': {
      summary: 'Update a disease',
      description: 'Admins only; audited. A taken name → 409 `name_taken`.',
      access: 'admin',
      body: NameAndDescriptionRequest,
      answers: { 200: ref('Disease') },
      errors: [409],
    },
    'DELETE /api/admin/diseases/{id}': {
      summary: 'Delete a disease',
      description: 'Admins only; audited. Refused with 409 `in_use` while a medical record names it.',
      access: 'admin',
      answers: { 204: null },
      errors: [409],
    },
    'GET /api/admin/rooms': {
      summary: 'List rooms',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('rooms', ref('Room')) },
    },
    'POST /api/admin/rooms': {
      summary: 'Create a room',
      description:
        'Admins only; audited. An unknown department → 422 naming `department_id`; a taken name → 409 `name_taken`.',
      access: 'admin',
      body: RoomRequest,
      answers: { 201: ref('Room') },
      errors: [409],
    },
    'GET /api/admin/rooms/{id}': {
      summary: 'Get a room',
      access: 'admin',
      answers: { 200: ref('Room') },
    },
    'PUT /api/admin/rooms/{id}': {
      summary: 'Update a room',
      description:
        'Admins only; audited. An unknown department → 422 naming `department_id`; a taken name → 409 `name_taken`.',
      access: 'admin',
      body: RoomRequest,
      answers: { 200: ref('Room') },
      errors: [409],
    },
    'DELETE /api/admin/rooms/{id}': {
      summary: 'Delete a room',
      description:
        'Admins only; audited. Refused with 409 `in_use` while schedule slots, appointments or hospital stays use it (the message says which).',
      access: 'admin',
      answers: { 204: null },
      errors: [409],
    },
    'GET /api/admin/doctors': {
      summary: 'List doctors (admin)',
      description: 'Active doctors; `q` searches name, e-mail, specialization and department.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('doctors', ref('Doctor')) },
    },
    'GET /api/doctors': {
      summary: 'List doctors',
      description: 'Any signed-in user. Active doctors; `q` searches name, e-mail, specialization and department.',
      access: 'user',
      query: pageQuery,
      answers: { 200: listOf('doctors', ref('Doctor')) },
    },
    'GET /api/patient/doctors': {
      summary: 'List doctors to book with',
      description:
        'Patients only; the same list as `GET /api/doctors`, each doctor with `next_free`, their first free slot from now within the booking window ' +
        `(null when none), for the first ${NEXT_FREE_DOCTORS} doctors of the page.`,
      access: 'patient',
      query: pageQuery,
      answers: { 200: listOf('doctors', ref('BookableDoctor')) },
    },
    'POST /api/admin/doctors': {
      summary: 'Create a doctor',
      description:
        "Admins only; audited. Makes the doctor's account (role doctor) and the clinic's default week (Monday to Friday, 09:00–17:00, 30-minute slots). " +
        'Multipart form data (JSON is read too, without a photo). A taken e-mail → 409 `email_taken`; a photo that is not a PNG, JPEG or WebP → 422, ' +
        'one over 2 MiB → 413 `image_too_large`; an unknown specialization or department → 422 naming it.',
      access: 'admin',
      multipart: NewDoctorForm,
      answers: { 201: ref('Doctor') },
      errors: [409],
    },
    'GET /api/admin/doctors/{id}': {
      summary: 'Get a doctor (admin)',
      access: 'admin',
      answers: { 200: ref('Doctor') },
    },
    'GET /api/doctors/{id}': {
      summary: 'Get a doctor',
      description: 'Any signed-in user; an inactive doctor is not found.',
      access: 'user',
      answers: { 200: ref('Doctor') },
    },
    'PUT /api/admin/doctors/{id}': {
      summary: 'Update a doctor',
      description:
        'Admins only; audited. Multipart form data or JSON with the same fields as creating one, each optional: an absent field keeps its value, ' +
        'a new password or photo replaces the old one. A taken e-mail → 409 `email_taken`; photo rules as on create.',
      access: 'admin',
      multipart: DoctorUpdateForm,
      answers: { 200: ref('Doctor') },
      errors: [409],
    },
    'DELETE /api/admin/doctors/{id}': {
      summary: 'Delete or deactivate a doctor',
      description:
        'Admins only; audited. Refused with 409 `doctor_has_appointments` while scheduled appointments from today on remain. A doctor with any ' +
        'appointment or record is deactivated (cannot sign in, sessions ended, gone from lists and booking): `result` says which was done.',
      access: 'admin',
      answers: { 200: DoctorDeletionShape },
      errors: [409],
    },
  },
};
