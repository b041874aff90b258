import {
  GenderShape,
  ImageShape,
  MoneyShape,
  NamedShape,
  PersonShape,
  RoleShape,
  UserShape,
} from '../../domain/shared/shared-shapes.ts';
import { PageQuery } from '../../domain/shared/pagination.ts';
import {
  array,
  date,
  email,
  integer,
  nullable,
  object,
  propertiesOf,
  ref,
  string,
  type Schema,
} from '../../domain/shared/wire-schema.ts';

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
  Named: NamedShape,
  Person: PersonShape,
  Money: MoneyShape,
  Image: ImageShape,
  Role: RoleShape,
  Gender: GenderShape,
  User: UserShape,
  /** docs/api.md "patient row": the admin's and the desk's patient lists. */
  Patient: object(patientRow),
};

/** The query parameters of every list (docs/api.md "Lists"): `q`, `page`, `per_page`. */
export const pageQuery = propertiesOf(PageQuery);
