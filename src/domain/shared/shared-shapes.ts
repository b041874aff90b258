import { GENDERS, ROLES } from './actor.ts';
import {
  component,
  email,
  integer,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  uri,
  type Static,
} from './wire-schema.ts';

// The shapes many modules' answers share (docs/api.md "Shapes"), each listed once in the OpenAPI document.

export const NamedShape = component('Named', object({ id: integer(), name: string() }));
export type NamedJson = Static<typeof NamedShape>;

export const PersonShape = component('Person', object({ id: integer(), name: string(), email: nullable(email()) }));

/** An amount in dollars with two decimals ("12.50"); answers give it in cents beside it. */
export const MoneyShape = component(
  'Money',
  string({
    pattern: '^-?[0-9]+\\.[0-9]{2}$',
    description: 'An amount in dollars with two decimals; the same amount is given in cents beside it',
  }),
);

export const ImageShape = component('Image', nullable(uri()));

export const RoleShape = component('Role', oneOfValues(ROLES));

export const GenderShape = component('Gender', oneOfValues(GENDERS));

/** docs/api.md "user": a signed-in account as the API shows it. */
export const UserShape = component(
  'User',
  object({ id: integer(), name: string(), email: email(), role: ref(RoleShape), profile_image: ref(ImageShape) }),
);
export type UserJson = Static<typeof UserShape>;

/** The clinic's settings every page formats with (GET /api/clinic). */
export const ClinicShape = component(
  'Clinic',
  object({
    name: string(),
    address: string({ description: "The clinic's address, for letterheads; empty when not set" }),
    phone: string({ description: 'Empty when not set' }),
    time_zone: string(),
    locale: string({ description: 'BCP 47, as Intl spells it: en-US, en-GB, de-DE' }),
  }),
);
export type ClinicJson = Static<typeof ClinicShape>;
