import {
  array,
  date,
  email,
  id,
  integer,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  uri,
  type Schema,
} from './schema.ts';

/**
 * PatientRow of src/domain/patients/ports.ts: the properties of a row of the patient lists, which the desk's patient
 * card (DeskPatient) has too. Schemas are closed objects, so the card cannot extend the row by reference.
 */
export const patientRow = {
  id: integer(),
  name: string(),
  email: nullable(email()),
  phone: string(),
  gender: nullable(ref('Gender')),
  birthdate: nullable(date()),
  no_shows: integer({ minimum: 0, description: 'Visits the patient did not come to' }),
} satisfies Record<string, Schema>;

/**
 * The shapes many operations share (docs/api.md "Shapes"); a module's own shapes live in its paths file and are
 * registered here by name so the document refers to each once.
 */
export const sharedSchemas: Record<string, Schema> = {
  Error: object(
    {
      message: string(),
      code: string({ pattern: '^[a-z][a-z0-9_]*$' }),
      errors: {
        type: 'object',
        additionalProperties: array(string()),
        description: 'Each invalid field and its problems',
      },
    },
    { optional: ['errors'] },
  ),
  Named: object({ id: integer(), name: string() }),
  Person: object({ id: integer(), name: string(), email: nullable(email()) }),
  Money: string({
    pattern: '^-?[0-9]+\\.[0-9]{2}$',
    description: 'An amount in dollars with two decimals; the same amount is given in cents beside it',
  }),
  Image: nullable(uri()),
  Role: oneOfValues(['patient', 'doctor', 'admin', 'reception']),
  Gender: oneOfValues(['male', 'female', 'other']),
  /** docs/api.md "user": a signed-in account as the API shows it. */
  User: object({ id: integer(), name: string(), email: email(), role: ref('Role'), profile_image: ref('Image') }),
  /** docs/api.md "patient row": the admin's and the desk's patient lists. */
  Patient: object(patientRow),
  /** docs/api.md "patient detail": a patient with every medical record, newest first (admin and doctor). */
  PatientDetail: object({
    id: integer(),
    user: ref('Person'),
    name: string(),
    email: nullable(email()),
    phone: string(),
    birthdate: nullable(date()),
    gender: nullable(ref('Gender')),
    photo: ref('Image'),
    description: string(),
    medical_records: array(ref('MedicalRecord')),
  }),
};

/** The query parameters of every list (docs/api.md "Lists"): `q`, `page`, `per_page`. */
export const pageQuery = {
  q: string({ maxLength: 200, description: 'Search text' }),
  page: id('Page number, from 1'),
  per_page: integer({ minimum: 1, maximum: 200, default: 50, description: 'Rows per page (default 50, at most 200)' }),
} satisfies Record<string, Schema>;
